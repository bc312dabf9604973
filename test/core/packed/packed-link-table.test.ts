// PackedLinkTable (src/core/packed/packed-link-table.ts) against SplitLinkTable, the LinkTable it
// is to replace: seeded random sets, deletes, gets and listings (lazy ones with changes made
// meanwhile too) give the same observable results, values deep-equal and orders equal. Then what
// differs by design (no identity kept) and its bounds.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { SplitLinkTable } from '../../../src/core/link-table.js';
import type { LinkRecord, LinkTable } from '../../../src/core/model.js';
import { MAX_KEY_BYTES, MAX_RECORD_BYTES, SEGMENT_BYTES } from '../../../src/core/packed/bounds.js';
import { PackedLinkTable } from '../../../src/core/packed/packed-link-table.js';

const TAGS = [[], ['tag_a'], ['tag_a', 'tag_b']];

function randomLink(id: string, step: number): LinkRecord {
  const link: LinkRecord = {
    id,
    accountId: faker.helpers.arrayElement(['acc_1', 'acc_2']),
    domainId: 'dom_1',
    slug: faker.string.alphanumeric(7),
    destinationUrl: `https://example.com/${faker.string.alphanumeric(faker.number.int({ min: 0, max: 60 }))}?q="é"`,
    createdAt: new Date(1.7e12 + step * 1000).toISOString(),
    clickCount: faker.number.int({ min: 0, max: 10_000 }),
    tagIds: faker.helpers.arrayElement(TAGS),
  };
  if (faker.datatype.boolean()) link.title = faker.lorem.words(3);
  if (faker.number.int({ min: 0, max: 9 }) === 0) link.extra = { note: faker.lorem.word(), n: step, nested: { list: [1, 'two', null] } };
  return link;
}

/** Both tables list the same ids, values and pairs, and write the same JSON. */
function expectSame(packed: LinkTable, split: LinkTable): void {
  expect(packed.size).toBe(split.size);
  expect([...packed.keys()]).toEqual([...split.keys()]);
  expect([...packed.values()]).toEqual([...split.values()]);
  expect([...packed]).toEqual([...split]);
  expect(JSON.stringify(packed)).toBe(JSON.stringify(split));
}

/** SplitLinkTable's order list (its EntryOrder's chunks, replaced when a rebuild ends), to see whether it was rebuilt (its listings then differ by design: see the test below). */
const orderOf = (split: SplitLinkTable): unknown => (split as unknown as { order: { order: unknown } }).order.order;

describe('PackedLinkTable against SplitLinkTable', () => {
  it('gives the same results through seeded sets, sets again, deletes, gets and listings (30,000 steps, the order rebuilt on the way)', () => {
    faker.seed(4004);
    const ids = ['', '__proto__', 'constructor', 'toString', '日本', '😀', 'a"b\\c', ...Array.from({ length: 293 }, () => `lnk_${faker.string.alphanumeric(16)}`)];
    const packed = new PackedLinkTable();
    const split = new SplitLinkTable();
    let lazyCompared = 0;
    let rebuilds = 0;
    for (let step = 0, order = orderOf(split); step < 30_000; step += 1) {
      const id = faker.helpers.arrayElement(ids);
      const action = faker.number.int({ min: 0, max: 99 });
      if (action < 45) {
        const link = randomLink(id, step);
        expect(packed.set(id, link)).toBe(packed);
        split.set(id, link);
      } else if (action < 80) {
        expect(packed.delete(id)).toBe(split.delete(id));
      } else if (action < 97) {
        expect(packed.get(id)).toEqual(split.get(id));
        expect(packed.has(id)).toBe(split.has(id));
      } else {
        // A lazy listing with changes made while it runs.
        const rebuilt = orderOf(split);
        const seen: [string[], string[]] = [[], []];
        const listings = [packed.keys(), split.keys()] as const;
        for (let k = 0; k < 60; k += 1) {
          const [fromPacked, fromSplit] = [listings[0].next(), listings[1].next()];
          if (fromPacked.done !== fromSplit.done) seen[0].push('<ended differently>');
          if (fromPacked.done || fromSplit.done) break;
          seen[0].push(fromPacked.value);
          seen[1].push(fromSplit.value);
          const other = faker.helpers.arrayElement(ids);
          const change = faker.number.int({ min: 0, max: 3 });
          if (change === 0) continue;
          if (change === 1) {
            const link = randomLink(other, step);
            packed.set(other, link);
            split.set(other, link);
          } else expect(packed.delete(other)).toBe(split.delete(other));
        }
        if (orderOf(split) === rebuilt) {
          expect(seen[0]).toEqual(seen[1]);
          lazyCompared += 1;
        }
      }
      expect(packed.size).toBe(split.size);
      if (step % 1499 === 0) expectSame(packed, split);
      if (orderOf(split) !== order) [rebuilds, order] = [rebuilds + 1, orderOf(split)];
    }
    expect(rebuilds).toBeGreaterThan(0);
    expectSame(packed, split);
    for (const id of ids) expect(packed.get(id)).toEqual(split.get(id));
    expect(lazyCompared).toBeGreaterThan(250);
  });

  it('lists lazily as SplitLinkTable does: one deleted before it is reached is not listed, one put back after a delete not twice', () => {
    for (const make of [() => new PackedLinkTable(), () => new SplitLinkTable()]) {
      const table = make();
      for (const [n, id] of ['lnk_a', 'lnk_b', 'lnk_c'].entries()) table.set(id, randomLink(id, n));
      const seen: string[] = [];
      for (const [id] of table) {
        seen.push(id);
        if (id === 'lnk_a') {
          table.delete('lnk_b');
          table.set('lnk_b', randomLink('lnk_b', 4));
        }
        if (id === 'lnk_c') {
          table.delete('lnk_a');
          table.set('lnk_a', randomLink('lnk_a', 5));
        }
      }
      expect(seen).toEqual(['lnk_a', 'lnk_c']);
      expect([...table.keys()]).toEqual(['lnk_c', 'lnk_b', 'lnk_a']);
    }
  });
});

describe('PackedLinkTable', () => {
  it('keeps no identity: each get is a fresh object, and changing it changes nothing stored; equal tag lists are one frozen list', () => {
    const table = new PackedLinkTable();
    const link = randomLink('lnk_a', 1);
    table.set('lnk_a', link);
    link.clickCount = -1;
    const got = table.get('lnk_a') as LinkRecord;
    expect(got.clickCount).not.toBe(-1);
    expect(table.get('lnk_a')).not.toBe(got);
    got.slug = 'changed';
    expect(table.get('lnk_a')?.slug).not.toBe('changed');
    table.set('lnk_b', { ...randomLink('lnk_b', 2), tagIds: ['tag_a', 'tag_b'] });
    table.set('lnk_c', { ...randomLink('lnk_c', 3), tagIds: ['tag_a', 'tag_b'] });
    const shared = table.get('lnk_b')?.tagIds;
    expect(shared).toEqual(['tag_a', 'tag_b']);
    expect(Object.isFrozen(shared)).toBe(true);
    expect(table.get('lnk_c')?.tagIds).toBe(shared);
  });

  it('after a rebuild during a listing, lists the links there when it began, each once, none put since (a stricter reading than SplitLinkTable)', () => {
    const table = new PackedLinkTable();
    for (let n = 0; n < 20_000; n += 1) table.set(`lnk_${n}`, randomLink(`lnk_${n}`, n));
    const listing = table.keys();
    expect(listing.next().value).toBe('lnk_0');
    // More deletes than links left: the order is rebuilt; then lnk_19999 deleted and put back, a new link put.
    for (let n = 1; n < 15_000; n += 1) table.delete(`lnk_${n}`);
    table.delete('lnk_19999');
    table.set('lnk_19999', randomLink('lnk_19999', 1));
    table.set('lnk_new', randomLink('lnk_new', 2));
    const rest = [...listing];
    expect(rest).toEqual(Array.from({ length: 4999 }, (_, k) => `lnk_${15_000 + k}`));
    expect([...table.keys()].slice(-3)).toEqual(['lnk_19998', 'lnk_19999', 'lnk_new']);
  });

  it('reorders as SplitLinkTable does, and refuses what it refuses', () => {
    const table = new PackedLinkTable();
    for (const [n, id] of ['lnk_a', 'lnk_b', 'lnk_c'].entries()) table.set(id, randomLink(id, n));
    table.reorder(['lnk_c', 'lnk_a', 'lnk_b']);
    expect([...table.keys()]).toEqual(['lnk_c', 'lnk_a', 'lnk_b']);
    table.set('lnk_d', randomLink('lnk_d', 3));
    table.delete('lnk_a');
    table.set('lnk_a', randomLink('lnk_a', 4));
    expect([...table.keys()]).toEqual(['lnk_c', 'lnk_b', 'lnk_d', 'lnk_a']);
    expect(() => table.reorder(['lnk_c'])).toThrow(/^reorder: 1 ids for a table of 4 links/);
    expect(() => table.reorder(['lnk_c', 'lnk_b', 'lnk_d', 'lnk_a'])).toThrow(/and 5 entries$/);
    const fresh = new PackedLinkTable();
    for (const id of ['x', 'y']) fresh.set(id, randomLink(id, 0));
    expect(() => fresh.reorder(['x', 'x'])).toThrow(/"x" listed twice/);
    expect([...fresh.keys()]).toEqual(['x', 'y']);
    expect(() => fresh.reorder(['x', 'z'])).toThrow(/no link "z"/);
  });

  it('keeps createdAt as ms when it is the mock own form, NaN otherwise', () => {
    const table = new PackedLinkTable();
    table.set('a', { ...randomLink('a', 0), createdAt: '2026-11-29T00:00:00.000Z' });
    table.set('b', { ...randomLink('b', 0), createdAt: '2026-11-29T00:00:00Z' });
    table.set('c', { ...randomLink('c', 0), createdAt: '2026-02-30T00:00:00.000Z' });
    expect(table.createdAtOf('a')).toBe(Date.parse('2026-11-29T00:00:00.000Z'));
    expect(table.createdAtOf('b')).toBeNaN();
    expect(table.createdAtOf('c')).toBeNaN();
    expect(table.createdAtOf('d')).toBeUndefined();
  });

  it('bounds: a key of 0 bytes is a key; one past MAX_KEY_BYTES, with a lone surrogate, or a value JSON cannot write is refused with nothing changed; a link larger than a segment is held; one past MAX_RECORD_BYTES refused', () => {
    const table = new PackedLinkTable();
    table.set('', randomLink('', 0));
    expect(table.get('')?.id).toBe('');
    // A value's strings as JSON writes them (a lone surrogate escaped), read back the same; a key with a NUL is a key.
    const odd = { ...randomLink('a\u0000b', 0), title: 'x\ud800y\u2028z', extra: { ['__proto__']: 1, 'é': ['\udfff'] } } as LinkRecord;
    table.set('a\u0000b', odd);
    expect(table.get('a\u0000b')).toEqual(JSON.parse(JSON.stringify(odd)));
    expect(table.get('a\u0000b')?.title).toBe('x\ud800y\u2028z');
    expect(Object.hasOwn(table.get('a\u0000b')?.extra ?? {}, '__proto__')).toBe(true);
    expect(table.delete('a\u0000b')).toBe(true);
    expect(() => table.set('x'.repeat(MAX_KEY_BYTES + 1), randomLink('x', 0))).toThrow(/MAX_KEY_BYTES/);
    expect(() => table.set('\ud800', randomLink('x', 0))).toThrow(/lone surrogate/);
    const cyclic = randomLink('lnk_c', 0) as LinkRecord & { self?: unknown };
    cyclic.self = cyclic;
    expect(() => table.set('lnk_c', cyclic)).toThrow(/circular/i);
    expect(() => table.set('lnk_big', { ...randomLink('lnk_big', 0), clickCount: 10n as unknown as number })).toThrow(/BigInt/);
    expect([...table.keys()]).toEqual(['']);
    const big = { ...randomLink('lnk_big', 0), title: 't'.repeat(SEGMENT_BYTES + 10) };
    table.set('lnk_big', big);
    expect(table.get('lnk_big')).toEqual(big);
    expect(() => table.set('lnk_huge', { ...big, title: 't'.repeat(MAX_RECORD_BYTES) })).toThrow(/MAX_RECORD_BYTES/);
    expect(table.has('lnk_huge')).toBe(false);
    expect(table.size).toBe(2);
  });

  it('compacts its arena under it: the links read the same after the space of deleted ones is moved out', () => {
    faker.seed(4005);
    const table = new PackedLinkTable();
    const split = new SplitLinkTable();
    for (let n = 0; n < 24_000; n += 1) {
      const link = randomLink(`lnk_${n}`, n);
      table.set(link.id, link);
      split.set(link.id, link);
    }
    // Three of four deleted: every segment under half live.
    for (let n = 0; n < 24_000; n += 1) {
      if (n % 4 === 0) continue;
      table.delete(`lnk_${n}`);
      split.delete(`lnk_${n}`);
    }
    const before = table.held();
    let calls = 0;
    while (table.compactStep() > 0 && calls < 10_000) calls += 1;
    expect(calls).toBeGreaterThan(0);
    expect(table.held().segments).toBeLessThan(before.segments);
    expectSame(table, split);
  });
});
