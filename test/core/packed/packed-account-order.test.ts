// PackedAccountOrder (src/core/packed/packed-account-order.ts): an account's links newest first as
// record numbers of a LinkArena. Checked against OrderedLinks (link-order.ts) holding the same links
// as LinkRecords, through seeded adds (creates mostly newest, some older, many in one millisecond,
// adds again at the same position), removes (of links there and not) and pages from every kind of
// cursor: none, a link's, a position no link holds, an id with no UTF-8 form; createdAt texts not
// of the mock's own form (compared as text) and ids whose UTF-8 order is not JavaScript's.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { BLOCK, OrderedLinks, type LinkPosition } from '../../../src/core/link-order.js';
import type { LinkRecord } from '../../../src/core/model.js';
import { createdAtMs } from '../../../src/core/packed/created-at-ms.js';
import { LinkArena } from '../../../src/core/packed/link-arena.js';
import { OrderKey } from '../../../src/core/packed/order-key.js';
import { PackedAccountOrder } from '../../../src/core/packed/packed-account-order.js';
import { RecordBytes } from '../../../src/core/packed/record-bytes.js';

/** createdAt texts not of toISOString's form (the arena's ms NaN), or of it with a year under 100. */
const ODD_TIMES = ['2026-01-01T00:00:00Z', 'not a date', '2026-02-30T00:00:00.000Z', '0050-01-01T00:00:00.000Z', '2026-06-01T12:00:00.000+00:00', ''];
/** Ids past U+FFFF and in U+E000-U+FFFF: UTF-8 byte order and UTF-16 order differ between them. */
const ODD_IDS = ['lnk_é', 'lnk_😀', 'lnk_\ue000', 'lnk_\uffff', 'lnk_😀a', 'lnk_', 'lnk_A', 'lnk_a'];

class Fixture {
  readonly arena = new LinkArena();
  readonly key = new OrderKey(this.arena);
  readonly packed = new PackedAccountOrder(this.key);
  readonly ordered = new OrderedLinks();
  /** Links in the order, by id, with their record numbers. */
  readonly there = new Map<string, { link: LinkRecord; n: number }>();
  private readonly writer = new RecordBytes();

  store(link: LinkRecord): number {
    const record = this.writer.write(link.id, link);
    return this.arena.add(record, createdAtMs(link.createdAt), this.writer.keyLength);
  }

  /** Record n rewritten (its position unchanged). */
  rewrite(n: number, link: LinkRecord): void {
    const record = this.writer.write(link.id, link);
    this.arena.replace(n, record, createdAtMs(link.createdAt), this.writer.keyLength);
  }

  idOf = (n: number): string => this.arena.text(n, 0, this.arena.head(n));

  expectPage(after: LinkPosition | undefined, limit: number): void {
    expect(this.packed.page(after, limit).map(this.idOf)).toEqual(this.ordered.page(after, limit).map((link) => link.id));
  }

  /** Same links in the same order, blocks within bounds, and the same page after every link's position. */
  expectSame(): void {
    expect(this.packed.size).toBe(this.ordered.size);
    expect(this.packed.all().map(this.idOf)).toEqual(this.ordered.all().map((link) => link.id));
    for (const length of this.packed.blockLengths()) expect(length >= 1 && length <= 2 * BLOCK).toBe(true);
    for (const link of this.ordered.all()) this.expectPage(link, 3);
  }
}

describe('PackedAccountOrder', () => {
  it('pages as OrderedLinks does at every cursor (seeded, 14,000 steps, past 2 × BLOCK links, blocks split and dropped)', () => {
    faker.seed(4020);
    const f = new Fixture();
    const ids = [...ODD_IDS, ...Array.from({ length: 3500 }, () => `lnk_${faker.string.alphanumeric(faker.number.int({ min: 1, max: 16 }))}`)];
    let clock = Date.UTC(2026, 0, 1);
    const timeOf = (): string => {
      const roll = faker.number.int({ min: 0, max: 99 });
      if (roll < 4) return faker.helpers.arrayElement(ODD_TIMES);
      if (roll < 14) return new Date(clock - faker.number.int({ min: 0, max: 20_000 })).toISOString();
      clock += faker.number.int({ min: 0, max: 3 });
      return new Date(clock).toISOString();
    };
    const linkOf = (id: string, createdAt: string): LinkRecord =>
      ({ id, accountId: 'acc_1', domainId: 'dom_1', slug: id.slice(4), destinationUrl: 'https://example.com/', createdAt, clickCount: 0, tagIds: [] }) as LinkRecord;
    for (let step = 0; step < 14_000; step += 1) {
      const id = faker.helpers.arrayElement(ids);
      const held = f.there.get(id);
      const action = faker.number.int({ min: 0, max: 9 });
      if (action < 5 && held) {
        // Added again at its position: the same record, or the record rewritten (another title) first.
        if (faker.datatype.boolean()) f.rewrite(held.n, { ...held.link, title: `t${step}` });
        f.packed.add(held.n);
        f.ordered.add(held.link);
      } else if (action < 5) {
        const link = linkOf(id, timeOf());
        const n = f.store(link);
        f.there.set(id, { link, n });
        f.packed.add(n);
        f.ordered.add(link);
      } else if (action < 7 && held) {
        expect(f.packed.remove(held.n)).toBe(true);
        expect(f.ordered.remove(held.link)).toBe(true);
        f.arena.remove(held.n);
        f.there.delete(id);
      } else if (action < 7) {
        // A position no link holds: both find nothing to remove.
        const ghost = linkOf(id, timeOf());
        const n = f.store(ghost);
        expect(f.packed.remove(n)).toBe(f.ordered.remove(ghost));
        f.arena.remove(n);
      } else {
        const cursor = faker.helpers.arrayElement([
          undefined,
          held?.link,
          { createdAt: timeOf(), id },
          { createdAt: timeOf(), id: 'lnk_\ud800' },
          { createdAt: timeOf(), id: `lnk_${'x'.repeat(5000)}` },
        ]);
        f.expectPage(cursor, faker.number.int({ min: 0, max: 60 }));
      }
      if (step % 3500 === 3499) f.expectSame();
    }
    expect(f.packed.blockLengths().length).toBeGreaterThan(2);
    f.expectSame();
    // Removed down to none: the blocks dropped, a page empty, a remove finds nothing.
    for (const { link, n } of f.there.values()) {
      expect(f.packed.remove(n)).toBe(true);
      f.ordered.remove(link);
    }
    expect(f.packed.blockLengths()).toEqual([]);
    expect(f.packed.page(undefined, 10)).toEqual([]);
    f.expectSame();
  });

  it('orders ids as JavaScript compares them, not as their UTF-8 bytes (a character past U+FFFF before U+E000)', () => {
    const f = new Fixture();
    const createdAt = '2026-01-01T00:00:00.000Z';
    for (const id of ODD_IDS) {
      const link = { id, createdAt } as LinkRecord;
      f.packed.add(f.store(link));
      f.ordered.add(link);
    }
    expect(f.packed.all().map(f.idOf)).toEqual([...ODD_IDS].sort());
    expect([...ODD_IDS].sort().indexOf('lnk_😀')).toBeLessThan([...ODD_IDS].sort().indexOf('lnk_\ue000'));
    f.expectSame();
  });
});
