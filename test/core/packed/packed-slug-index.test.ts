// PackedSlugIndex (src/core/packed/packed-slug-index.ts): per domain, slug → record number. Checked
// against SlugIndex/slotSlug (slug-table.ts) through seeded puts, deletes and lookups; its bounds (a
// slug past MAX_KEY_BYTES, a lone surrogate, a slug of 0 bytes); and the hostile case it is keyed
// for: slugs chosen to share a sub-table under one seed are spread under another.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../../src/core/model.js';
import { MAX_KEY_BYTES } from '../../../src/core/packed/bounds.js';
import { hashBytes } from '../../../src/core/packed/byte-hash.js';
import { SUB_TABLES } from '../../../src/core/packed/byte-key-index.js';
import { PackedSlugIndex } from '../../../src/core/packed/packed-slug-index.js';
import { slotSlug, type SlugIndex } from '../../../src/core/slug-table.js';

/** A link standing for record number n (only what slotSlug reads). */
const linkOf = (domainId: string, slug: string, n: number): LinkRecord => ({ id: `lnk_${n}`, domainId, slug }) as LinkRecord;
const recordOf = (link: LinkRecord | undefined): number => (link === undefined ? -1 : Number(link.id.slice(4)));

/** `count` ASCII slugs whose hash under `seed` has the same top 6 bits (sub-table) and low 6 bits. */
function collidingSlugs(seed: number, count: number): string[] {
  const found: string[] = [];
  const bytes = new Uint8Array(16);
  let target = -1;
  for (let i = 0; found.length < count && i < 50_000_000; i += 1) {
    const text = i.toString(36);
    for (let k = 0; k < text.length; k += 1) bytes[k] = text.charCodeAt(k);
    const hash = hashBytes(bytes, 0, text.length, seed);
    const bits = ((hash >>> 26) << 6) | (hash & 63);
    if (target < 0) target = bits;
    if (bits === target) found.push(text);
  }
  return found;
}

describe('PackedSlugIndex', () => {
  it('answers as SlugIndex and slotSlug do (seeded, 30,000 steps over 3 domains, non-ASCII slugs)', () => {
    faker.seed(4010);
    const packed = new PackedSlugIndex(faker.number.int({ min: 0, max: 0xffffffff }) | 0);
    const model: SlugIndex = new Map();
    const domains = ['dom_a', 'dom_b', 'dom_c'];
    const slugs = ['', 'é', '日本', '😀', 'a'.repeat(300), ...Array.from({ length: 1500 }, () => faker.string.alphanumeric({ length: { min: 1, max: 12 } }))];
    for (let step = 0; step < 30_000; step += 1) {
      const domainId = faker.helpers.arrayElement(domains);
      const slug = faker.helpers.arrayElement(slugs);
      const action = faker.number.int({ min: 0, max: 3 });
      if (action === 0) {
        const n = step;
        expect(packed.put(domainId, slug, n)).toBe(slotSlug(model, linkOf(domainId, slug, n)));
      } else if (action === 1) {
        expect(packed.delete(domainId, slug)).toBe(model.get(domainId)?.delete(slug) ?? false);
      } else {
        expect(packed.get(domainId, slug)).toBe(recordOf(model.get(domainId)?.get(slug)));
        expect(packed.has(domainId, slug)).toBe(model.get(domainId)?.has(slug) ?? false);
      }
      expect(packed.domain(domainId)?.size ?? 0).toBe(model.get(domainId)?.size ?? 0);
      if (step % 1000 === 0) packed.compactStep();
    }
    for (const domainId of domains) for (const slug of slugs) expect(packed.get(domainId, slug)).toBe(recordOf(model.get(domainId)?.get(slug)));
    expect(packed.size).toBe(domains.reduce((sum, id) => sum + (model.get(id)?.size ?? 0), 0));
  });

  it('refuses slugs with no stored form and records that are not record numbers, nothing changed; a slug of 0 bytes is a slug', () => {
    const index = new PackedSlugIndex(7);
    expect(index.put('dom', '', 0)).toBe(true);
    expect(index.get('dom', '')).toBe(0);
    expect(index.put('dom', 'x'.repeat(MAX_KEY_BYTES), 1)).toBe(true);
    expect(() => index.put('dom', 'x'.repeat(MAX_KEY_BYTES + 1), 2)).toThrow(/MAX_KEY_BYTES/);
    expect(() => index.put('dom', '€'.repeat(1366), 2)).toThrow(/MAX_KEY_BYTES/);
    expect(() => index.put('dom', 'a\ud800', 2)).toThrow(/lone surrogate/);
    expect(() => index.put('dom', 'ok', -1)).toThrow(/not a record number/);
    expect(() => index.put('dom', 'ok', 1.5)).toThrow(/not a record number/);
    expect(index.get('dom', 'x'.repeat(MAX_KEY_BYTES + 1))).toBe(-1);
    expect(index.has('dom', 'a\ud800')).toBe(false);
    expect(index.delete('dom', 'a\ud800')).toBe(false);
    expect(index.domain('dom')?.size).toBe(2);
    expect(index.size).toBe(2);
    // A slug put again answers the new record, the count unchanged.
    expect(index.put('dom', '', 9)).toBe(false);
    expect(index.get('dom', '')).toBe(9);
    expect(index.size).toBe(2);
  });

  it('draws its seed per index: slugs chosen to share one sub-table under one seed are spread under another', () => {
    const fixed = 0x811c9dc5 | 0;
    const chosen = collidingSlugs(fixed, 400);
    expect(chosen).toHaveLength(400);
    // Under the seed they were chosen for, all in one sub-table (the attack works: the test can fail).
    const attacked = new PackedSlugIndex(fixed);
    for (const [n, slug] of chosen.entries()) attacked.put('dom', slug, n);
    expect(Math.max(...(attacked.domain('dom')?.spread() ?? []))).toBe(400);
    // Under other seeds (two given, one drawn), spread: 400 over 64 sub-tables is 6.25 each on average.
    const drawn = new PackedSlugIndex();
    expect(drawn.seed).not.toBe(new PackedSlugIndex().seed);
    for (const index of [new PackedSlugIndex(1), new PackedSlugIndex(0x5bd1e995), drawn]) {
      for (const [n, slug] of chosen.entries()) index.put('dom', slug, n);
      const spread = index.domain('dom')?.spread() ?? [];
      expect(spread).toHaveLength(SUB_TABLES);
      expect(Math.max(...spread)).toBeLessThan(30);
      for (const [n, slug] of chosen.entries()) expect(index.get('dom', slug)).toBe(n);
    }
  });
});
