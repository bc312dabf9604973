// The file store's link ids (src/store/file/link-ids.ts): the ids read kept as an array, the ids put
// since in chunks of at most ID_CHUNK; listed each once, while data.links holds them: the base's
// in their order, then those put since in the order they were put (a base id put moves to the end).
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { ID_CHUNK, LinkIds } from '../../src/store/file/link-ids.js';
import { SplitLinkTable } from '../../src/core/link-table.js';
import type { LinkRecord } from '../../src/core/model.js';

/** The order the listing keeps, as a Set: the base's ids, then each put since moved to the end once. */
class Model {
  readonly order: Set<string>;
  private readonly put = new Set<string>();
  constructor(base: string[]) {
    this.order = new Set(base);
  }
  add(id: string): void {
    if (this.put.has(id)) return;
    this.put.add(id);
    this.order.delete(id);
    this.order.add(id);
  }
  delete(id: string): void {
    this.put.delete(id);
    this.order.delete(id);
  }
}

const chunksOf = (ids: LinkIds): Map<string, number>[] => (ids as unknown as { chunks: Map<string, number>[] }).chunks;

describe('LinkIds', () => {
  it('lists the ids data.links holds in the base order, then those put since, across chunks, with puts, repeated puts, deletes and puts again', () => {
    faker.seed(40);
    const next = (): number => faker.number.float();
    const base = Array.from({ length: 1000 }, (_, i) => `lnk_${i}`);
    const links = SplitLinkTable.of(Object.fromEntries(base.map((id) => [id, {} as LinkRecord])));
    const ids = new LinkIds(links, base);
    const model = new Model(base);
    for (let i = 0; i < 4 * ID_CHUNK; i += 1) {
      const id = `lnk_${Math.floor(next() * 2 * ID_CHUNK)}`;
      if (next() < 0.7) {
        links.set(id, {} as LinkRecord);
        ids.add(id);
        model.add(id);
      } else {
        links.delete(id);
        ids.delete(id);
        model.delete(id);
      }
    }
    expect(chunksOf(ids).length).toBeGreaterThan(1);
    expect([...ids]).toEqual([...model.order]);
    expect(new Set(ids).size).toBe(links.size);
  });

  it('grows in chunks of at most ID_CHUNK puts, and drops a chunk left empty', () => {
    const links = new SplitLinkTable();
    const ids = new LinkIds(links);
    for (let i = 0; i < 2 * ID_CHUNK + 3; i += 1) {
      links.set(`lnk_${i}`, {} as LinkRecord);
      ids.add(`lnk_${i}`);
    }
    const sizes = (): number[] => chunksOf(ids).map((chunk) => chunk.size);
    expect(sizes()).toEqual([ID_CHUNK, ID_CHUNK, 3]);
    for (let i = ID_CHUNK; i < 2 * ID_CHUNK; i += 1) {
      links.delete(`lnk_${i}`);
      ids.delete(`lnk_${i}`);
    }
    expect(sizes()).toEqual([ID_CHUNK, 3]);
    expect([...ids].slice(ID_CHUNK - 1)).toEqual([`lnk_${ID_CHUNK - 1}`, `lnk_${2 * ID_CHUNK}`, `lnk_${2 * ID_CHUNK + 1}`, `lnk_${2 * ID_CHUNK + 2}`]);
  });

  // A compaction lists the ids lazily while writes go on (log-file-store.ts): it must never write a
  // key twice, and must write every link that was there before it began and is there all along.
  it('lists each id at most once, and every id held throughout, while ids are put and deleted during the listing', () => {
    faker.seed(41);
    const next = (): number => faker.number.float();
    const base = Array.from({ length: 3000 }, (_, i) => `lnk_${i}`);
    const links = SplitLinkTable.of(Object.fromEntries(base.map((id) => [id, {} as LinkRecord])));
    const ids = new LinkIds(links, base);
    const change = (): string => {
      const id = `lnk_${Math.floor(next() * 4000)}`;
      if (next() < 0.6) {
        links.set(id, {} as LinkRecord);
        ids.add(id);
      } else {
        links.delete(id);
        ids.delete(id);
      }
      return id;
    };
    for (let i = 0; i < 2000; i += 1) change();
    const before = new Set(links.keys());
    const touched = new Set<string>();
    const listed: string[] = [];
    for (const id of ids) {
      listed.push(id);
      for (let i = 0; i < 3; i += 1) touched.add(change());
    }
    expect(new Set(listed).size).toBe(listed.length);
    const heldThroughout = [...before].filter((id) => !touched.has(id));
    expect(heldThroughout.length).toBeGreaterThan(100);
    const listedOnce = new Set(listed);
    expect(heldThroughout.filter((id) => !listedOnce.has(id))).toEqual([]);
  });
});
