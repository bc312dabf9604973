// The LinkStore of one process, its writes: the data in memory with its indexes (MockState), every
// change made durable through `persist` (the lowdb file's change log, or nothing for :memory:); the
// reads are in src/store/file/local-link-reads.ts. One event loop makes each step atomic: a create's
// checks and its change to memory run with nothing in between, and its write follows. A change
// that cannot be made durable is undone and rejected: memory never holds what the disk does not
// (change-writes.ts). A replace (reset, restore) is written and indexed first, then swapped in
// whole; changes wait while it is written (data-replace.ts). An account is written before it is
// handed out (account-writes.ts).
import type { Awaitable } from '../../core/awaitable.js';
import type { AccountRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import type { KnownLinks } from '../../core/snapshots.js';
import type { MockState } from '../../core/state.js';
import { AccountWrites } from './account-writes.js';
import { DataReplace } from './data-replace.js';
import { ChangeWrites, type Persist } from './change-writes.js';
import { LocalLinkReads } from './local-link-reads.js';
import type { CreateOutcome, LinkChange, LinkStore, NewLink, SeededAccount } from '../../core/link-store.js';

export type { Persist } from './change-writes.js';

export class LocalLinkStore extends LocalLinkReads implements LinkStore {
  /** Each change's write, undone if it fails; new tags written with their first link. */
  private readonly writes: ChangeWrites;
  /** Accounts being written, by key: until then, their key's requests wait (accountByKey). */
  private readonly accountWrites: AccountWrites;
  /** The replace being written, if any: every change waits for it first (data-replace.ts, `writing`). */
  private readonly replace: DataReplace;

  constructor(
    data: MockData,
    persist: Persist,
    readonly location: string,
    /** data's state when the start's check built it; or the keys of data.links when the DataStore keeps them (MockState's constructor walks them). */
    index?: MockState | Iterable<string>,
  ) {
    super(data, index);
    this.writes = new ChangeWrites(() => this.current, persist);
    this.accountWrites = new AccountWrites(() => this.current, this.writes);
    this.replace = new DataReplace(persist, (state) => {
      this.current = state;
      this.writes.replaced();
    });
  }

  async claimTagName(tag: TagRecord): Promise<{ tag: TagRecord; created: boolean }> {
    while (this.replace.writing) await this.replace.writing;
    const existing = this.current.tagByName({ id: tag.accountId }, tag.name);
    if (existing) return { tag: existing, created: false };
    this.current.addTag(tag);
    this.writes.tagAdded(tag);
    return { tag, created: true };
  }

  /**
   * Not an async function: with no replace being written (nearly always), the checks and the change
   * to memory run in the caller's turn, as the async function's first step did, and the answer is
   * the write's own promise with one reaction (an async function's promise and resumption fewer a
   * create, bench/create-cost.md). A replace being written: waited for first, as before.
   */
  createLink(created: NewLink): Promise<CreateOutcome> {
    if (this.replace.writing) return this.createLinkAfterReplace(created);
    try {
      return this.createLinkNow(created);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private async createLinkAfterReplace(created: NewLink): Promise<CreateOutcome> {
    while (this.replace.writing) await this.replace.writing;
    return this.createLinkNow(created);
  }

  /** In one turn: the facts checked, the change made to memory, its write started. */
  private createLinkNow({ link, linkLimit, newTags }: NewLink): Promise<CreateOutcome> {
    const state = this.current;
    const outcome = refusal(state, link, linkLimit, newTags);
    if (outcome !== 'stored') return Promise.resolve(outcome);
    for (const tag of newTags) {
      state.addTag(tag);
      this.writes.tagAdded(tag);
    }
    state.addLink(link);
    return this.writes.writeLink(link, newTags, () => state.removeLink(link)).then(stored);
  }

  async updateLink(link: LinkRecord, change: LinkChange, createdTags: readonly TagRecord[]): Promise<LinkRecord | undefined> {
    while (this.replace.writing) await this.replace.writing;
    const stored = this.current.linkById(link.id);
    if (!stored) return undefined;
    this.beforeChange(stored);
    const before: Pick<LinkRecord, 'destinationUrl' | 'tagIds' | 'extra' | 'title'> = { destinationUrl: stored.destinationUrl, tagIds: stored.tagIds };
    if (change.destinationUrl !== undefined) stored.destinationUrl = change.destinationUrl;
    if (change.tagIds !== undefined) stored.tagIds = change.tagIds;
    if (change.dropTitle && stored.title !== undefined) {
      before.title = stored.title;
      delete stored.title;
    }
    // A contract FILE's new Link fields (--contract) an update sent; never with the shipped contract.
    if (change.extra !== undefined) {
      before.extra = stored.extra;
      stored.extra = change.extra;
    }
    // The undo is a change in place too: a restore's read may have taken the record as it is now.
    await this.writes.writeLink(stored, createdTags, () => {
      this.beforeChange(stored);
      Object.assign(stored, before);
    });
    return stored;
  }

  async deleteLink(link: LinkRecord): Promise<boolean> {
    while (this.replace.writing) await this.replace.writing;
    const state = this.current;
    const stored = state.linkById(link.id);
    if (!stored) return false;
    state.removeLink(stored);
    await this.writes.write([{ op: 'delete-link', id: stored.id }], () => state.addLink(stored));
    return true;
  }

  async addClicks(linkId: string, count: number): Promise<LinkRecord | undefined> {
    while (this.replace.writing) await this.replace.writing;
    const link = this.current.linkById(linkId);
    if (!link) return undefined;
    this.beforeChange(link);
    link.clickCount += count;
    await this.writes.write([{ op: 'put-link', link }], () => {
      this.beforeChange(link);
      link.clickCount -= count;
    });
    return link;
  }

  async setLinkLimit(accountId: string, linkLimit: number): Promise<AccountRecord | undefined> {
    while (this.replace.writing) await this.replace.writing;
    const account = this.current.accounts().find((candidate) => candidate.id === accountId);
    if (!account) return undefined;
    const before = account.linkLimit;
    account.linkLimit = linkLimit;
    await this.writes.write([{ op: 'put-account', account }], () => void (account.linkLimit = before));
    return account;
  }

  /** A key's account is found only once it is written: until then, whatever depends on it waits. */
  override accountByKey(apiKey: string): Awaitable<AccountRecord | undefined> {
    return this.accountWrites.isWriting(apiKey) ? this.accountWrites.whenWritten(apiKey) : this.current.accountByKey(apiKey);
  }

  /** Written before it is handed out, as any change (account-writes.ts). */
  async addAccount(seeded: SeededAccount): Promise<AccountRecord> {
    while (this.replace.writing) await this.replace.writing;
    return this.accountWrites.add(seeded);
  }

  async createAccount(seeded: SeededAccount): Promise<'stored' | 'key-taken'> {
    while (this.replace.writing) await this.replace.writing;
    if (this.accountWrites.isTaken(seeded.account.apiKey)) return 'key-taken';
    await this.accountWrites.store(seeded);
    return 'stored';
  }

  /** `read` given the stored records it may take for the equal ones it reads, watched until their replace (src/store/file/reused-links.ts). */
  readReusing<T>(read: (known: KnownLinks) => Promise<T>): Promise<T> {
    return this.replace.readReusing(this.current, read);
  }

  /** Before a stored link is changed in place: the snapshots being copied and the restores' reads that took it keep it as it is now. */
  protected override beforeChange(link: LinkRecord): void {
    super.beforeChange(link);
    this.replace.beforeChange(link);
  }

  replaceAll(data: MockData): Promise<void> {
    return this.replace.replaceAll(data);
  }

  async close(): Promise<void> {}
}

const stored = (): CreateOutcome => 'stored';

/**
 * The first fact of the create that does not hold now, in the order of link-store.ts ('stored': none).
 * Loops, not a Set of the new tags' ids and closures: a create names a few tags at most, and this
 * runs on every create.
 */
function refusal(state: MockState, link: LinkRecord, linkLimit: number, newTags: readonly TagRecord[]): CreateOutcome {
  if (!state.accountById(link.accountId) || !state.domainById(link.domainId)) return 'gone';
  for (const id of link.tagIds) if (!isNewTag(newTags, id) && !state.tagById(id)) return 'gone';
  if (state.linkCount({ id: link.accountId }) >= linkLimit) return 'limit';
  for (const tag of newTags) if (state.tagByName({ id: tag.accountId }, tag.name) || state.tagById(tag.id)) return 'tag-name';
  if (state.isSlugTaken(link.domainId, link.slug)) return 'slug';
  return state.linkById(link.id) ? 'id' : 'stored';
}

function isNewTag(newTags: readonly TagRecord[], id: string): boolean {
  for (const tag of newTags) if (tag.id === id) return true;
  return false;
}
