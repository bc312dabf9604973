// One frozen array per distinct list of tag ids, shared by every loaded link that names those tags
// (issue 40: memory at 1,000,000 links). Each link had its own tagIds array: 32 bytes of array and
// 16 + 8 per id of elements, ~56 bytes a link, ~53 MiB at 1,000,000 links, where the seed's million
// links name ~400 distinct lists. Frozen, a shared list cannot be changed for one link through
// another: the store replaces a link's tagIds (an update), never changes them in place, and
// LinkRecord.tagIds is readonly.

interface ListNode {
  list: readonly string[];
  /** The lists one id longer, by that id; made when first needed. */
  next?: Map<string, ListNode>;
}

/**
 * Distinct lists (and their prefixes) one TagLists shares; past it a list is left as it is. Bounds
 * what hostile data (every link naming its own list) can make it keep: about its own size again.
 */
export const SHARED_TAG_LISTS = 10_000;

const EMPTY: readonly string[] = Object.freeze([]);

export class TagLists {
  private readonly root: ListNode = { list: EMPTY };
  private count = 1;

  /**
   * The shared frozen list equal to `ids` (ids compared with ===), or `ids` itself when it is frozen
   * already (shared before), holds anything but strings (not a record of ours: refused later by
   * the integrity check), or the bound is reached. A walk of Map lookups: no string made per link.
   * A new list holds `instance(id)` of each id: the one string the tag's own record holds.
   */
  shared<T>(ids: T, instance: (id: string) => string = (id) => id): T | readonly string[] {
    if (!Array.isArray(ids) || Object.isFrozen(ids)) return ids;
    let node = this.root;
    for (let i = 0; i < ids.length; i += 1) {
      const id: unknown = ids[i];
      if (typeof id !== 'string') return ids;
      let next = node.next?.get(id);
      if (!next) {
        if (this.count >= SHARED_TAG_LISTS) return ids;
        next = { list: Object.freeze([...node.list, instance(id)]) };
        (node.next ??= new Map()).set(id, next);
        this.count += 1;
      }
      node = next;
    }
    return node.list;
  }
}
