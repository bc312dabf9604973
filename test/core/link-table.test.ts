// MockData.links (src/core/link-table.ts, issue 40): one plain object of 1,000,000 links grew in one
// step of ~180 ms; the table spreads them over LINK_TABLES Maps, none of which holds much more than
// its share, and behaves as the plain object did: the same links, in the same order, through puts,
// puts again, deletes and puts after a delete.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { LINK_TABLES, SplitLinkTable } from '../../src/core/link-table.js';
import type { LinkRecord } from '../../src/core/model.js';
import { stepBoth, tableLink as link } from '../helpers/table-model.js';


describe('the links table', () => {
  it('spreads ids as the API makes them (lnk_ + 16 alphanumerics) over its tables: none holds twice its share', () => {
    faker.seed(40);
    const table = new SplitLinkTable();
    const count = 20_000;
    for (let n = 0; n < count; n += 1) {
      const id = `lnk_${faker.string.alphanumeric(16)}`;
      table.set(id, link(id, n));
    }
    expect(table.size).toBe(count);
    expect(table.largestTable()).toBeLessThanOrEqual((2 * count) / LINK_TABLES);
  });

  it('keeps the links and the order of a plain object through puts, puts again, deletes and puts after a delete (seeded, 50,000 steps: the order rebuilt on the way)', () => {
    faker.seed(41);
    const ids = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', ...Array.from({ length: 196 }, () => `lnk_${faker.string.alphanumeric(16)}`)];
    const table = new SplitLinkTable();
    const model: Record<string, LinkRecord> = {};
    for (let step = 0; step < 50_000; step += 1) {
      const id = faker.helpers.arrayElement(ids);
      stepBoth(table, model, id, faker.datatype.boolean(), step);
      if (step % 1999 === 0) {
        expect([...table.keys()]).toEqual(Object.keys(model));
        expect([...table.values()]).toEqual(Object.values(model));
      }
    }
    expect([...table]).toEqual(Object.entries(model));
    expect(table.size).toBe(Object.keys(model).length);
    for (const id of ids) expect(table.get(id)).toBe(Object.hasOwn(model, id) ? model[id] : undefined);
    expect(JSON.stringify(table)).toBe(JSON.stringify(model));
  });

  it('lists lazily the links there when the listing began: one deleted and put back meanwhile is seen at most once', () => {
    const table = SplitLinkTable.of({ lnk_a: link('lnk_a', 1), lnk_b: link('lnk_b', 2), lnk_c: link('lnk_c', 3) });
    const seen: string[] = [];
    for (const id of table.keys()) {
      seen.push(id);
      if (id === 'lnk_a') {
        table.delete('lnk_b');
        table.set('lnk_b', link('lnk_b', 4));
      }
    }
    expect(seen).toEqual(['lnk_a', 'lnk_c']);
  });

  it('lists lazily: a link already listed, then deleted and put back, is not listed again', () => {
    const table = SplitLinkTable.of({ lnk_a: link('lnk_a', 1), lnk_b: link('lnk_b', 2) });
    const seen: string[] = [];
    for (const [id] of table) {
      seen.push(id);
      if (id === 'lnk_b') {
        table.delete('lnk_a');
        table.set('lnk_a', link('lnk_a', 3));
        table.set('lnk_new', link('lnk_new', 4));
      }
    }
    expect(seen).toEqual(['lnk_a', 'lnk_b']);
    expect([...table.keys()]).toEqual(['lnk_b', 'lnk_a', 'lnk_new']);
  });

  it('lists its ids in the order it is given, which holds through later puts and deletes; refuses a count that is not its own', () => {
    const table = new SplitLinkTable();
    for (const [n, id] of ['lnk_a', 'lnk_b', 'lnk_c'].entries()) table.set(id, link(id, n));
    table.reorder(['lnk_c', 'lnk_a', 'lnk_b']);
    expect([...table.keys()]).toEqual(['lnk_c', 'lnk_a', 'lnk_b']);
    table.set('lnk_d', link('lnk_d', 3));
    table.delete('lnk_a');
    table.set('lnk_a', link('lnk_a', 4));
    expect([...table.keys()]).toEqual(['lnk_c', 'lnk_b', 'lnk_d', 'lnk_a']);
    expect(table.get('lnk_a')?.clickCount).toBe(4);
    expect(() => table.reorder(['lnk_c'])).toThrow(/^reorder: 1 ids for a table of 4 links/);
    // Once an id was deleted, its stale entry is still in the order: no reorder then.
    expect(() => table.reorder(['lnk_c', 'lnk_b', 'lnk_d', 'lnk_a'])).toThrow(/and 5 entries$/);
  });
});
