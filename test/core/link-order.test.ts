// Issue 40: OrderedLinks (src/core/link-order.ts), the index of one account's links in page order,
// against a plain sorted array: any mix of adds (newest, out of order, equal createdAt) and removes
// leaves the same links in the same order, and a page from any position is the model's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { olderFirst, OrderedLinks, type LinkPosition } from '../../src/core/link-order.js';
import { sortLinks } from '../../src/core/link-sort.js';
import type { LinkRecord } from '../../src/core/model.js';

const TIMES = ['2026-11-28T10:00:00.000Z', '2026-11-28T10:00:00.001Z', '2026-11-28T10:00:01.000Z', '2026-11-29T00:00:00.000Z'];
const link = (createdAt: string, id: string): LinkRecord => ({ id, accountId: 'acc', domainId: 'dom', slug: id, destinationUrl: 'https://example.com', createdAt, clickCount: 0, tagIds: [] });
const newestFirst = (links: LinkRecord[]): LinkRecord[] => [...links].sort((a, b) => olderFirst(b, a));
const modelPage = (model: LinkRecord[], after: LinkPosition | undefined, limit: number): string[] =>
  newestFirst(model.filter((candidate) => !after || olderFirst(candidate, after) < 0))
    .slice(0, limit)
    .map((shown) => shown.id);

describe('OrderedLinks', () => {
  it('holds what a sorted array holds, and pages from any position as it does (seeded property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), at: fc.nat(TIMES.length - 1), id: fc.stringMatching(/^[a-c]{1,3}$/) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('page' as const), at: fc.nat(TIMES.length - 1), id: fc.stringMatching(/^[a-c]{0,3}$/), limit: fc.integer({ min: 1, max: 6 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const ordered = new OrderedLinks();
        let model: LinkRecord[] = [];
        ops.forEach((step, n) => {
          if (step.kind === 'add') {
            const added = link(TIMES[step.at] as string, `${step.id}${n}`);
            ordered.add(added);
            model.push(added);
          } else if (step.kind === 'remove' && model.length > 0) {
            const removed = model[step.pick % model.length] as LinkRecord;
            expect(ordered.remove(removed)).toBe(true);
            expect(ordered.remove(removed)).toBe(false);
            model = model.filter((kept) => kept !== removed);
          } else if (step.kind === 'page') {
            const after = { createdAt: TIMES[step.at] as string, id: step.id };
            expect(ordered.page(after, step.limit).map((shown) => shown.id)).toEqual(modelPage(model, after, step.limit));
          }
        });
        expect(ordered.size).toBe(model.length);
        expect(ordered.all()).toEqual(newestFirst(model).reverse());
        expect(ordered.page(undefined, model.length + 1).map((shown) => shown.id)).toEqual(modelPage(model, undefined, model.length + 1));
      }),
      { seed: 40, numRuns: 300 },
    );
  });

  it('splits and drops its blocks: 5,000 links added out of order (many in one millisecond), half removed, paged 97 at a time', () => {
    let state = 40;
    const random = (): number => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const links = Array.from({ length: 5_000 }, (_, i) => link(TIMES[Math.floor(random() * TIMES.length)] as string, `lnk_${Math.floor(random() * 1e9)}_${i}`));
    const ordered = OrderedLinks.of(links.slice(0, 1_000));
    for (const added of links.slice(1_000)) ordered.add(added);
    const removed = links.filter((_, i) => i % 2 === 1);
    for (const gone of removed) expect(ordered.remove(gone)).toBe(true);
    const kept = links.filter((_, i) => i % 2 === 0);
    const shown: string[] = [];
    let after: LinkPosition | undefined;
    for (let page = 0; page < 100; page += 1) {
      const read = ordered.page(after, 97);
      shown.push(...read.map((one) => one.id));
      if (read.length < 97) break;
      after = read.at(-1);
    }
    expect(shown).toEqual(newestFirst(kept).map((one) => one.id));
    expect(ordered.size).toBe(kept.length);
    for (const gone of kept) expect(ordered.remove(gone)).toBe(true);
    expect([ordered.size, ordered.page(undefined, 10), ordered.all()]).toEqual([0, [], []]);
    ordered.add(kept[0] as LinkRecord);
    expect(ordered.page(undefined, 10)).toEqual([kept[0]]);
  });

  it('takes creates as they come (6 a millisecond, random ids, some older) in page order, across blocks, and an add again near the end replaces', () => {
    let state = 46;
    const random = (): number => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const ordered = new OrderedLinks();
    const model: LinkRecord[] = [];
    for (let i = 0; i < 3_000; i += 1) {
      // 6 links a millisecond, and now and then one up to 40 ms older (further from the end than the steps looked at).
      const ms = Math.floor(i / 6) - (i % 13 === 0 ? Math.floor(random() * 40) : 0);
      const added = link(new Date(Date.UTC(2026, 10, 29) + ms).toISOString(), `lnk_${Math.floor(random() * 1e9)}`);
      ordered.add(added);
      model.push(added);
      if (i % 7 === 0) {
        const again = { ...(model[model.length - 1 - Math.floor(random() * Math.min(model.length, 20))] as LinkRecord) };
        ordered.add(again);
        model[model.findIndex((one) => one.id === again.id)] = again;
      }
    }
    expect(ordered.size).toBe(model.length);
    expect(ordered.all()).toEqual(newestFirst(model).reverse());
    expect(ordered.page(undefined, 50).map((one) => one.id)).toEqual(modelPage(model, undefined, 50));
  });

  it('holds a link of the same position once: adding it again replaces it', () => {
    const ordered = new OrderedLinks();
    const first = link(TIMES[0] as string, 'same');
    ordered.add(first);
    ordered.add(link(TIMES[1] as string, 'newer'));
    const again = { ...first, slug: 'again' };
    ordered.add(again);
    expect(ordered.size).toBe(2);
    expect(ordered.all()[0]).toBe(again);
  });

  it("sorts a start's links as the comparator does, by radix on the mock's own createdAt form, and by the comparator on any other (seeded property)", () => {
    const canonical = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2020, 0, 1) + 200 }).map((ms) => new Date(ms).toISOString());
    const odd = fc.constantFrom('2026-13-01T00:00:00.000Z', '0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '2026-01-01T00:00:00Z', 'yesterday', '2026-01-01T00:00:60.000Z', '２026-01-01T00:00:00.000Z');
    fc.assert(
      // Half the arrays all in the mock's form (the radix path, many in one millisecond), half mixed (the comparator's).
      fc.property(fc.oneof(fc.array(canonical, { maxLength: 300 }), fc.array(fc.oneof({ weight: 20, arbitrary: canonical }, { weight: 1, arbitrary: odd }), { maxLength: 300 })), fc.infiniteStream(fc.stringMatching(/^[a-d]{1,2}$/)), (times, ids) => {
        const pairs = times.map((createdAt) => [createdAt, ids.next().value as string] as const);
        const links = pairs.map(([createdAt, id], i) => link(createdAt, `${id}${i}`));
        const expected = [...links].sort(olderFirst);
        sortLinks(links, olderFirst);
        expect(links).toEqual(expected);
      }),
      { seed: 40, numRuns: 400 },
    );
  });
});
