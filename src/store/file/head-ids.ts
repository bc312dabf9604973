// The ids a file's head holds (its accounts', domains' and tags'), for the links read after it
// (src/store/file/db-records.ts) to share: JSON.parse gives every link its own copies of the ids it
// names; pointed at the head's one instance as each batch is parsed, the copies die young.
import { TagLists } from '../../core/tag-lists.js';
import { isObject } from './db-kind.js';

export class HeadIds {
  /** An id → the one instance of it the head's records hold. */
  private readonly shared = new Map<string, string>();
  private readonly tagLists = new TagLists();

  /** `head`: the file parsed without its links (checked later: anything may be missing). */
  constructor(head: Record<string, unknown>) {
    const share = (record: unknown): void => {
      if (isObject(record) && typeof record['id'] === 'string') this.shared.set(record['id'], record['id']);
    };
    share(head['defaultDomain']);
    for (const account of Array.isArray(head['accounts']) ? head['accounts'] : []) {
      share(account);
      if (isObject(account) && Array.isArray(account['domains'])) account['domains'].forEach(share);
    }
    const tags = isObject(head['tags']) ? head['tags'] : {};
    for (const id in tags) share(tags[id]);
  }

  /** The ids a link names, pointed at the head's instances, and its tags' list shared (MockState, src/core/state.ts, would do it later, in the old space). */
  share(link: Record<string, unknown>): void {
    link['accountId'] = this.shared.get(link['accountId'] as string) ?? link['accountId'];
    link['domainId'] = this.shared.get(link['domainId'] as string) ?? link['domainId'];
    // The list every link of the same tags shares (src/core/tag-lists.ts): the parsed arrays die young.
    if (Array.isArray(link['tagIds'])) link['tagIds'] = this.tagLists.shared(link['tagIds'], (id) => this.shared.get(id) ?? id);
  }
}
