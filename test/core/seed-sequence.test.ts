// drawSeed (fixtures/seed-sequence.ts) is the one draw of a seed that buildSeedLinks keeps and the
// seed's base writer draws again (src/process/seed-base-worker.ts): each account's links in a row,
// in the fixtures' order, the data's head as buildSeed makes it. And SeedSlugs (fixtures/seed-slugs.ts):
// a replay told the answers a watched draw's slug checks gave, and keeping no slug, draws the same links.
import { describe, expect, it } from 'vitest';
import { REPEATED_SLUGS_SPEC, SPEC_SEED } from '../helpers/seed-spec.js';
import { buildSeed, buildSeedLinks } from '../../fixtures/seed.js';
import { drawSeed } from '../../fixtures/seed-sequence.js';
import { SeedSlugs, type DomainSlugs } from '../../fixtures/seed-slugs.js';
import type { LinkRecord } from '../../src/core/model.js';

const spec = REPEATED_SLUGS_SPEC;
const SEED = SPEC_SEED;

describe('drawSeed', () => {
  it('draws buildSeed\'s head and links: each account\'s in a row, accounts in the fixtures\' order', () => {
    const drawn: LinkRecord[] = [];
    const data = drawSeed(SEED, spec, new SeedSlugs(), (link) => void drawn.push(link));
    const seeded = buildSeed(SEED, spec);
    const { links: _none, ...head } = data;
    const { links: _all, ...seededHead } = seeded;
    expect(head).toEqual(seededHead);
    expect(data.links.size).toBe(0);
    const owners = drawn.map((link) => link.accountId);
    const [big, , small] = seeded.accounts;
    expect(owners).toEqual([...Array<string>(3000).fill(big!.id), ...Array<string>(40).fill(small!.id)]);
    expect(new Map(drawn.map((link) => [link.id, link]))).toEqual(new Map(seeded.links));
  });
});

describe('SeedSlugs', () => {
  it('keeps one table per domain, the state\'s slug index, and tells each answer of its checks in order', () => {
    const answers: boolean[] = [];
    const slugs = new SeedSlugs((taken) => answers.push(taken));
    const link = { slug: 'a' } as LinkRecord;
    const domain = slugs.of('dom_1');
    expect(slugs.of('dom_1')).toBe(domain);
    expect(domain.has('a')).toBe(false);
    domain.put('a', link);
    expect([domain.has('a'), slugs.of('dom_2').has('a')]).toEqual([true, false]);
    expect(answers).toEqual([false, true, false]);
    expect([...slugs.index.keys()]).toEqual(['dom_1', 'dom_2']);
    expect(slugs.index.get('dom_1')?.get('a')).toBe(link);
  });

  it('lets a draw told the answers of another, and keeping no slug, draw the same links', () => {
    const answers: boolean[] = [];
    const { links } = buildSeedLinks(SEED, spec, { checked: (taken) => void answers.push(taken), ordered: () => undefined });
    expect(answers.filter(Boolean).length, 'some slug drawn twice').toBeGreaterThan(0);
    let next = 0;
    const told: DomainSlugs = { has: () => answers[next++] as boolean, put: () => undefined };
    const replayed: LinkRecord[] = [];
    drawSeed(SEED, spec, { of: () => told }, (link) => void replayed.push(link));
    expect(next).toBe(answers.length);
    expect(new Map(replayed.map((link) => [link.id, link]))).toEqual(new Map(links.map((link) => [link.id, link])));
  });
});
