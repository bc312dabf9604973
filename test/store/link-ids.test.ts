// The file store's set of link ids in chunks (src/store/file/link-ids.ts): the same ids in the same
// order as one Set given the same adds and deletes, with no table of more than ID_CHUNK ids.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { ID_CHUNK, LinkIds } from '../../src/store/file/link-ids.js';

describe('LinkIds', () => {
  it('holds the ids a Set would, in its order, across chunks, with adds, repeated adds, deletes and adds again', () => {
    faker.seed(40);
    const next = (): number => faker.number.float();
    const ids = new LinkIds(new Set(['lnk_start0', 'lnk_start1']));
    const set = new Set(['lnk_start0', 'lnk_start1']);
    for (let i = 0; i < 2.5 * ID_CHUNK; i += 1) {
      const id = `lnk_${Math.floor(next() * 2 * ID_CHUNK)}`;
      const op = next();
      if (op < 0.7) {
        ids.add(id);
        set.add(id);
      } else expect(ids.delete(id)).toBe(set.delete(id));
    }
    expect(ids.size).toBe(set.size);
    expect([...ids]).toEqual([...set]);
    expect(ids.has('lnk_start1')).toBe(set.has('lnk_start1'));
  });

  it('grows in chunks of at most ID_CHUNK ids past the Set it started from, and drops a chunk left empty', () => {
    const ids = new LinkIds();
    for (let i = 0; i < 2 * ID_CHUNK + 3; i += 1) ids.addNew(`lnk_${i}`);
    const sizes = (): number[] => (ids as unknown as { chunks: Set<string>[] }).chunks.map((chunk) => chunk.size);
    expect(sizes()).toEqual([ID_CHUNK, ID_CHUNK, 3]);
    for (let i = ID_CHUNK; i < 2 * ID_CHUNK; i += 1) ids.delete(`lnk_${i}`);
    expect(sizes()).toEqual([ID_CHUNK, 3]);
    expect([...ids].slice(ID_CHUNK - 1)).toEqual([`lnk_${ID_CHUNK - 1}`, `lnk_${2 * ID_CHUNK}`, `lnk_${2 * ID_CHUNK + 1}`, `lnk_${2 * ID_CHUNK + 2}`]);
  });
});
