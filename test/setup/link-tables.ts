// toEqual on two LinkTables (src/core/link-table.ts) compares their links as it compared the plain
// objects MockData.links was (by key, in any order): not the tables' insides, which differ by their
// history (a link deleted and put back leaves a stale entry until the order is rebuilt). A table
// equals the plain object of the same links: what JSON.parse gives of the file it was read from.
import { expect } from 'vitest';
import { SplitLinkTable } from '../../src/core/link-table.js';

type Testers = Parameters<typeof expect.addEqualityTesters>[0];

const sameLinks: Testers[number] = function (a, b, testers) {
  if (!(a instanceof SplitLinkTable) && !(b instanceof SplitLinkTable)) return undefined;
  return this.equals(a instanceof SplitLinkTable ? a.toJSON() : a, b instanceof SplitLinkTable ? b.toJSON() : b, testers);
};

expect.addEqualityTesters([sameLinks]);
