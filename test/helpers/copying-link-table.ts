// A links table that keeps none of the records it is given and hands out a copy on every read, as a
// table of links held off the JS heap will (bench/packed-sites.md: its get parses the record from its
// bytes): a change made to a record read from it is lost, and two reads of a link are never the same
// object. The core and the store run against it (SHORTLINK_MOCK_TEST_LINK_TABLE=copying,
// test/setup/copying-links.ts) to show that they change a stored link only by putting a new record
// (MockState.replaceLink) and never tell links apart by identity.
import { SplitLinkTable } from '../../src/core/link-table.js';
import type { LinkRecord } from '../../src/core/model.js';

/**
 * A copy of its own, as JSON.parse of the record's bytes would give, but for a frozen tagIds list:
 * the shared list of tag-lists.ts, which the packed table hands out too (bench/packed-sites.md), and
 * which no one can change. Any other list or object is not shared with `link`.
 */
function copyOf(link: LinkRecord): LinkRecord {
  const copy = structuredClone(link);
  // A member of a hand-edited file may be anything (null, a string): copied as it is.
  if (typeof link === 'object' && link !== null && Object.isFrozen(link.tagIds)) copy.tagIds = link.tagIds;
  return copy;
}

export class CopyingLinkTable extends SplitLinkTable {
  override get(id: string): LinkRecord | undefined {
    const link = super.get(id);
    return link === undefined ? undefined : copyOf(link);
  }

  override set(id: string, link: LinkRecord): this {
    return super.set(id, copyOf(link));
  }

  override *values(): Generator<LinkRecord> {
    for (const link of super.values()) yield copyOf(link);
  }

  override *[Symbol.iterator](): Generator<[string, LinkRecord]> {
    for (const [id, link] of super[Symbol.iterator]()) yield [id, copyOf(link)];
  }
}
