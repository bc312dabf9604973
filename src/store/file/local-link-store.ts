// The LinkStore of one process, its writes: the data in memory with its indexes (MockState), every
// change made durable through `persist` (the lowdb file's change log, or nothing for :memory:); the
// reads are in src/store/file/local-link-reads.ts. One event loop makes each step atomic: a create's
// checks and its change to memory run with nothing in between, and its write follows. A change
// that cannot be made durable is undone and rejected: memory never holds what the disk does not.
// A replace (reset, restore) is written and indexed first, a slice per turn, and only then takes the
// place of the data in memory, in one step; reads meanwhile see the data it replaces; changes wait
// while it is written, so that none is made on the state it replaces and written after it (none is
// lost to it), and one that fails leaves the data as it was, taking changes as before.
import type { Awaitable } from '../../core/awaitable.js';
import { forgetLinkBatches } from '../../core/link-batches.js';
import type { Change, StoreOp } from '../../core/changes.js';
import type { AccountRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import type { KnownLinks } from '../../core/snapshots.js';
import { MockState } from '../../core/state.js';
import { LocalLinkReads } from './local-link-reads.js';
import { ReusingReads } from './reused-links.js';
import { SeededAccountClash, type CreateOutcome, type LinkChange, type LinkStore, type NewLink, type SeededAccount } from '../../core/link-store.js';

export type Persist = (ops: StoreOp[]) => Promise<void>;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class LocalLinkStore extends LocalLinkReads implements LinkStore {
  /** New tags not yet written: the first write of a link that names one writes it too. */
  private readonly unwrittenTags = new Set<string>();
  /** Accounts being written, by key: until then, their key's requests wait (accountByKey). */
  private readonly accountWrites = new Map<string, Promise<AccountRecord>>();
  /**
   * The replace being written, settled either way. Changes wait for it with
   * `while (this.replacing) await this.replacing;` as their first line: the check that lets them
   * on runs in the same turn as their change to memory, so no replace can start in between. Each
   * turn waits for one replace, which ends (written or failed).
   */
  private replacing: Promise<void> | undefined;
  /** Restores' reads that took stored records (readReusing), watched until their replace. */
  private readonly reusing = new ReusingReads();

  constructor(
    data: MockData,
    private readonly persist: Persist,
    readonly location: string,
    /** data's state when the start's check built it; or the keys of data.links when the DataStore keeps them (MockState's constructor walks them). */
    index?: MockState | Iterable<string>,
  ) {
    super(data, index);
  }

  async claimTagName(tag: TagRecord): Promise<{ tag: TagRecord; created: boolean }> {
    while (this.replacing) await this.replacing;
    const existing = this.current.tagByName({ id: tag.accountId }, tag.name);
    if (existing) return { tag: existing, created: false };
    this.current.addTag(tag);
    this.unwrittenTags.add(tag.id);
    return { tag, created: true };
  }

  /**
   * Not an async function: with no replace being written (nearly always), the checks and the change
   * to memory run in the caller's turn, as the async function's first step did, and the answer is
   * the write's own promise with one reaction (an async function's promise and resumption fewer a
   * create, bench/create-cost.md). A replace being written: waited for first, as before.
   */
  createLink(created: NewLink): Promise<CreateOutcome> {
    if (this.replacing) return this.createLinkAfterReplace(created);
    try {
      return this.createLinkNow(created);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private async createLinkAfterReplace(created: NewLink): Promise<CreateOutcome> {
    while (this.replacing) await this.replacing;
    return this.createLinkNow(created);
  }

  /** In one turn: the facts checked, the change made to memory, its write started. */
  private createLinkNow({ link, linkLimit, newTags }: NewLink): Promise<CreateOutcome> {
    const state = this.current;
    const outcome = refusal(state, link, linkLimit, newTags);
    if (outcome !== 'stored') return Promise.resolve(outcome);
    for (const tag of newTags) {
      state.addTag(tag);
      this.unwrittenTags.add(tag.id);
    }
    state.addLink(link);
    return this.writeLink(link, newTags, () => state.removeLink(link)).then(stored);
  }

  async updateLink(link: LinkRecord, change: LinkChange, createdTags: readonly TagRecord[]): Promise<LinkRecord | undefined> {
    while (this.replacing) await this.replacing;
    const stored = this.current.linkById(link.id);
    if (!stored) return undefined;
    this.beforeChange(stored);
    const before: Pick<LinkRecord, 'destinationUrl' | 'tagIds' | 'extra'> = { destinationUrl: stored.destinationUrl, tagIds: stored.tagIds };
    if (change.destinationUrl !== undefined) stored.destinationUrl = change.destinationUrl;
    if (change.tagIds !== undefined) stored.tagIds = change.tagIds;
    // A contract FILE's new Link fields (--contract) an update sent; never with the shipped contract.
    if (change.extra !== undefined) {
      before.extra = stored.extra;
      stored.extra = change.extra;
    }
    // The undo is a change in place too: a restore's read may have taken the record as it is now.
    await this.writeLink(stored, createdTags, () => {
      this.beforeChange(stored);
      Object.assign(stored, before);
    });
    return stored;
  }

  async deleteLink(link: LinkRecord): Promise<boolean> {
    while (this.replacing) await this.replacing;
    const state = this.current;
    const stored = state.linkById(link.id);
    if (!stored) return false;
    state.removeLink(stored);
    await this.write([{ op: 'delete-link', id: stored.id }], () => state.addLink(stored));
    return true;
  }

  async addClicks(linkId: string, count: number): Promise<LinkRecord | undefined> {
    while (this.replacing) await this.replacing;
    const link = this.current.linkById(linkId);
    if (!link) return undefined;
    this.beforeChange(link);
    link.clickCount += count;
    await this.write([{ op: 'put-link', link }], () => {
      this.beforeChange(link);
      link.clickCount -= count;
    });
    return link;
  }

  async setLinkLimit(accountId: string, linkLimit: number): Promise<AccountRecord | undefined> {
    while (this.replacing) await this.replacing;
    const account = this.current.accounts().find((candidate) => candidate.id === accountId);
    if (!account) return undefined;
    const before = account.linkLimit;
    account.linkLimit = linkLimit;
    await this.write([{ op: 'put-account', account }], () => void (account.linkLimit = before));
    return account;
  }

  /** A key's account is found only once it is written: until then, whatever depends on it waits. */
  override accountByKey(apiKey: string): Awaitable<AccountRecord | undefined> {
    return this.accountWrites.has(apiKey) ? this.accountWhenWritten(apiKey) : this.current.accountByKey(apiKey);
  }

  private async accountWhenWritten(apiKey: string): Promise<AccountRecord | undefined> {
    for (let writing = this.accountWrites.get(apiKey); writing; writing = this.accountWrites.get(apiKey)) await writing.catch(() => undefined);
    return this.current.accountByKey(apiKey);
  }

  /**
   * Written before it is handed out, as any change (issue 23, item 1): a request with the same key
   * meanwhile waits for that write and shares its outcome; a write that fails takes the account
   * out of memory again, so no change of the key is ever written without it.
   */
  async addAccount(seeded: SeededAccount): Promise<AccountRecord> {
    const apiKey = seeded.account.apiKey;
    while (this.replacing) await this.replacing;
    const writing = this.accountWrites.get(apiKey);
    if (writing) return writing;
    return this.current.accountByKey(apiKey) ?? this.storeAccount(seeded);
  }

  async createAccount(seeded: SeededAccount): Promise<'stored' | 'key-taken'> {
    while (this.replacing) await this.replacing;
    const apiKey = seeded.account.apiKey;
    if (this.accountWrites.has(apiKey) || this.current.accountByKey(apiKey)) return 'key-taken';
    await this.storeAccount(seeded);
    return 'stored';
  }

  /** Adds the account with its tags and links to memory and writes them; undone if the write fails. */
  private storeAccount(seeded: SeededAccount): Promise<AccountRecord> {
    const state = this.current;
    const { account, tags, links } = seeded;
    const clash = seededClash(state, seeded);
    if (clash) return Promise.reject(clash);
    state.addAccount(account);
    for (const tag of tags) state.addTag(tag);
    for (const link of links) state.addLink(link);
    const changes: Change[] = [{ op: 'put-account', account }, ...tags.map((tag): Change => ({ op: 'put-tag', tag })), ...links.map((link): Change => ({ op: 'put-link', link }))];
    const written = this.write(changes, () => state.removeAccount(account, tags, links)).then(() => account);
    this.accountWrites.set(account.apiKey, written);
    const forget = (): void => {
      if (this.accountWrites.get(account.apiKey) === written) this.accountWrites.delete(account.apiKey);
    };
    written.then(forget, forget);
    return written;
  }

  /** `read` given the stored records it may take for the equal ones it reads, watched until their replace (src/store/file/reused-links.ts). */
  readReusing<T>(read: (known: KnownLinks) => Promise<T>): Promise<T> {
    return this.reusing.read(this.current, read);
  }

  /** Before a stored link is changed in place: the snapshots being copied and the restores' reads that took it keep it as it is now. */
  protected override beforeChange(link: LinkRecord): void {
    super.beforeChange(link);
    this.reusing.beforeChange(link);
  }

  async replaceAll(data: MockData): Promise<void> {
    while (this.replacing) await this.replacing;
    const done = this.replace(data);
    const replacing = done.then(
      () => undefined,
      () => undefined,
    );
    this.replacing = replacing;
    try {
      await done;
    } finally {
      if (this.replacing === replacing) this.replacing = undefined;
    }
  }

  /**
   * The new data written and its indexes built side by side, each a slice per turn (reads meanwhile
   * see the data it replaces, whole), then swapped in in one step: a request sees the old data or the
   * new, never a mix nor a half-built index (issue 40: at 1,000,000 links one step of seconds).
   */
  private async replace(data: MockData): Promise<void> {
    // Changes wait from here on: a record taken is the new state's. Changed since, the kept batches hold it, the data its copy.
    if (this.reusing.end(data.links)?.changed) forgetLinkBatches(data);
    const [state] = await Promise.all([MockState.built(data, nextTurn), this.persist([{ op: 'replace', data }])]);
    // Both have read the links' batches (a snapshot's reader or the seed's worker kept them): kept
    // longer, they would hold every link deleted from here on, as open-data.ts's seedStore says.
    forgetLinkBatches(data);
    this.current = state;
    this.unwrittenTags.clear();
  }

  async close(): Promise<void> {}

  /**
   * Writes the link with every tag it names that is not written yet (another request's new tag, too).
   * One promise reaction, not two nested async functions: this runs on every create and update
   * (bench/create-cost.md, "Which cut bought what"). A failed write undoes the change, then
   * forgets this request's new tags no link names, as `write` and a catch here did.
   */
  private writeLink(link: LinkRecord, createdTags: readonly TagRecord[], undo: () => void): Promise<void> {
    const changes: Change[] = [];
    for (const id of link.tagIds) if (this.unwrittenTags.has(id)) changes.push({ op: 'put-tag', tag: this.current.tagById(id) as TagRecord });
    const written = changes.length;
    changes.push({ op: 'put-link', link });
    return this.persist(changes).then(
      () => {
        for (let i = 0; i < written; i += 1) this.unwrittenTags.delete((changes[i] as Change & { op: 'put-tag' }).tag.id);
      },
      (error: unknown) => {
        undo();
        this.forgetUnusedTags(createdTags);
        throw error;
      },
    );
  }

  /** This request's new tags, when no link names them: as if they had never been claimed. */
  private forgetUnusedTags(createdTags: readonly TagRecord[]): void {
    for (const tag of createdTags) {
      if (!this.unwrittenTags.has(tag.id) || this.current.isTagNamed(tag.id)) continue;
      this.current.removeTag(tag);
      this.unwrittenTags.delete(tag.id);
    }
  }

  private async write(changes: StoreOp[], undo: () => void): Promise<void> {
    try {
      await this.persist(changes);
    } catch (error) {
      undo();
      throw error;
    }
  }
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

/** Why the seeded account cannot be stored as it is now, or undefined when it can. */
function seededClash(state: MockState, seeded: SeededAccount): SeededAccountClash | undefined {
  // Records point to their account by id, so a reused id would share them between two keys.
  const reusesAnId =
    state.accountById(seeded.account.id) !== undefined ||
    seeded.tags.some((tag) => state.tagById(tag.id) !== undefined) ||
    seeded.links.some((link) => state.linkById(link.id) !== undefined);
  if (reusesAnId) return new SeededAccountClash('id');
  return seeded.links.some((link) => state.isSlugTaken(link.domainId, link.slug)) ? new SeededAccountClash('slug') : undefined;
}
