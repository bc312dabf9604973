// The order of the links table (src/core/entry-order.ts, issue 40): its stale entries are dropped by a
// rebuild done a few entries with each change, never in one step (716 ms at the 500,000th of
// 1,000,000 deletes), and the table lists what a plain object would at every step of the way.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { EntryOrder } from '../../src/core/entry-order.js';
import { SplitLinkTable } from '../../src/core/link-table.js';
import type { LinkRecord } from '../../src/core/model.js';
import { stepBoth, tableLink as link } from '../helpers/table-model.js';

const SMALL = { chunk: 4, step: 3 };

describe('the order of the links table', () => {
  it('lists what a plain object lists through puts, deletes and puts after a delete, before, during and after each rebuild (seeded, 30,000 steps, chunks of 4)', () => {
    faker.seed(42);
    const ids = ['__proto__', 'constructor', ...Array.from({ length: 60 }, (_, n) => `lnk_${n}`)];
    const table = new SplitLinkTable(SMALL);
    const model: Record<string, LinkRecord> = {};
    let rebuilds = 0;
    let entries = 0;
    for (let step = 0; step < 30_000; step += 1) {
      const id = faker.helpers.arrayElement(ids);
      // Deletes more often than puts in runs, so that the table empties and fills again.
      stepBoth(table, model, id, faker.number.int({ min: 0, max: 9 }) < ((step >> 9) % 2 === 0 ? 4 : 7), step);
      if (table.orderEntries() < entries) rebuilds += 1;
      entries = table.orderEntries();
      expect([...table.keys()]).toEqual(Object.keys(model));
    }
    expect([...table]).toEqual(Object.entries(model));
    expect(rebuilds).toBeGreaterThan(20);
  });

  // A rebuild begins at twice the live ids (or the chunk), and copies `step` entries a change while a
  // change adds at most one: it ends within entries / (step - 1) changes, so the order never holds
  // more than (2 + 2 / (step - 1)) times the most ids the table held since it began, plus a few.
  it('keeps its stale entries bounded by the ids the table held, through 20,000 deletes and puts in runs', () => {
    faker.seed(43);
    const chunk = 16;
    const step = 4;
    const table = new SplitLinkTable({ chunk, step });
    const live: string[] = [];
    let most = 0;
    let worst = 0;
    for (let n = 0; n < 20_000; n += 1) {
      const deleting = (n >> 11) % 2 === 1 ? 0.8 : 0.3;
      if (live.length > 0 && faker.number.float() < deleting) table.delete(live.splice(faker.number.int({ max: live.length - 1 }), 1)[0] as string);
      else {
        const id = `lnk_${n}`;
        table.set(id, link(id, n));
        live.push(id);
      }
      // The most ids held over the last rebuild's span: the longest is entries / (step - 1) changes.
      most = Math.max(most, table.size);
      worst = Math.max(worst, table.orderEntries() / (Math.max(most, chunk) * (2 + 2 / (step - 1)) + 2));
      if (table.orderEntries() <= 2 * Math.max(table.size, chunk)) most = table.size;
    }
    expect(worst).toBeLessThanOrEqual(1);
    expect(worst).toBeGreaterThan(0.5);
  });

  it('looks up at most `step` entries with each change: no change pays for the whole rebuild', () => {
    const present = new Set<string>();
    let lookups = 0;
    const order = new EntryOrder<string>((id) => {
      lookups += 1;
      return present.has(id) ? id : undefined;
    }, { chunk: 64, step: 5 });
    for (let n = 0; n < 10_000; n += 1) {
      present.add(`id${n}`);
      order.added(`id${n}`);
    }
    let most = 0;
    // Delete all but a few: several rebuilds begin and end on the way.
    for (let n = 0; n < 9_990; n += 1) {
      lookups = 0;
      present.delete(`id${n}`);
      order.removed(`id${n}`, present.size);
      most = Math.max(most, lookups);
    }
    expect(most).toBe(5);
    expect(order.length).toBeLessThan(200);
    expect([...order.live()].map(([id]) => id)).toEqual(Array.from({ length: 10 }, (_, i) => `id${9_990 + i}`));
  });

  it('lists lazily through the end of a rebuild: each link there when the listing began at most once, and those not changed all', () => {
    const table = new SplitLinkTable(SMALL);
    for (let n = 0; n < 40; n += 1) table.set(`lnk_${n}`, link(`lnk_${n}`, n));
    for (let n = 0; n < 25; n += 1) table.delete(`lnk_${n}`);
    const seen: string[] = [];
    let changes = 0;
    for (const id of table.keys()) {
      seen.push(id);
      // Changes enough for the rebuild begun by the deletes to end during the listing.
      for (let i = 0; i < 10; i += 1, changes += 1) {
        table.set(`new_${changes}`, link(`new_${changes}`, changes));
        table.delete(`new_${changes}`);
      }
      if (id === 'lnk_30') {
        table.delete('lnk_35');
        table.set('lnk_35', link('lnk_35', 99));
        table.delete('lnk_26');
        table.set('lnk_26', link('lnk_26', 98));
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => id !== 'lnk_35')).toEqual(Array.from({ length: 15 }, (_, n) => `lnk_${25 + n}`).filter((id) => id !== 'lnk_35'));
    expect([...table.keys()]).toEqual([...Array.from({ length: 15 }, (_, n) => `lnk_${25 + n}`).filter((id) => id !== 'lnk_35' && id !== 'lnk_26'), 'lnk_35', 'lnk_26']);
  });
});
