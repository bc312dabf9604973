// What a compaction knows of the changes since its base (link-changes.ts): which base lines still
// hold their link, and the order of the links added since, as the table keeps it.
import { expect, it } from 'vitest';
import type { Change } from '../../src/core/changes.js';
import { idBytesHash, idHash } from '../../src/store/file/id-hash.js';
import { LINK_CHANGES_MAX, LinkChanges } from '../../src/store/file/link-changes.js';
import { tableLink } from '../helpers/table-model.js';

const put = (id: string): Change => ({ op: 'put-link', link: tableLink(id, 0) });
const del = (id: string): Change => ({ op: 'delete-link', id });

it('keeps a base line for a link only updated, none for one deleted since (added again or not), and nothing for one not changed', () => {
  const changes = new LinkChanges();
  for (const change of [put('updated'), del('deleted'), del('again'), put('again'), put('updated'), put('new')]) changes.note(change);
  expect(['updated', 'deleted', 'again', 'new', 'clean'].map((id) => changes.lineKept(id))).toEqual([true, false, false, true, undefined]);
});

it('lists the links added since in the order the table takes them: created once, or put again after a delete, last', () => {
  const changes = new LinkChanges();
  for (const change of [put('a'), put('b'), del('a'), put('c'), put('a'), put('b'), del('gone'), put('d'), del('d')]) changes.note(change);
  // Not those whose last change is a delete: in the table at the compaction, they were added again after these changes, and that put's log adds them.
  expect([...changes.added()]).toEqual(['b', 'c', 'a']);
  changes.written('b');
  expect([...changes.added()]).toEqual(['c', 'a']);
});

it(`forgets every change past ${LINK_CHANGES_MAX} ids: no base line is then taken as current`, () => {
  const changes = new LinkChanges();
  for (let i = 0; i < LINK_CHANGES_MAX; i += 1) changes.note(del(`lnk_${i}`));
  expect(changes.complete).toBe(true);
  changes.note(put('one-more'));
  expect({ complete: changes.complete, size: changes.size }).toEqual({ complete: false, size: 0 });
  changes.note(put('after'));
  expect(changes.size).toBe(0);
  expect(new LinkChanges(false).complete).toBe(false);
});

it('tells every id it noted by its bytes\' hash (no changed line passes for unchanged), and most others apart', () => {
  const changes = new LinkChanges();
  const noted = Array.from({ length: 50_000 }, (_, i) => `lnk_${i.toString(36).padStart(16, 'x')}`);
  for (const id of noted) changes.note(put(id));
  const bytesHash = (id: string): number => idBytesHash(Buffer.from(id, 'latin1'), 0, id.length);
  expect(noted.every((id) => idHash(id) === bytesHash(id) && changes.mayHold(bytesHash(id)))).toBe(true);
  const others = Array.from({ length: 50_000 }, (_, i) => `lnk_${i.toString(36).padStart(16, 'y')}`);
  const passed = others.filter((id) => changes.mayHold(bytesHash(id))).length;
  expect(passed).toBeLessThan(others.length * 0.05);
});
