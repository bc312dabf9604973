// The accounts the store of one process adds (local-link-store.ts: addAccount, createAccount), each
// written before it is handed out, as any change (issue 23, item 1): a request with the same key
// meanwhile waits for that write and shares its outcome; a write that fails takes the account out
// of memory again, so no change of the key is ever written without it.
import type { Change } from '../../core/changes.js';
import type { AccountRecord } from '../../core/model.js';
import type { MockState } from '../../core/state.js';
import { SeededAccountClash, type SeededAccount } from '../../core/link-store.js';
import type { ChangeWrites } from './change-writes.js';

export class AccountWrites {
  /** Accounts being written, by key: until then, their key's requests wait (whenWritten). */
  private readonly pending = new Map<string, Promise<AccountRecord>>();

  /** `state`: the store's state at each call (a replace swaps it). */
  constructor(
    private readonly state: () => MockState,
    private readonly writes: ChangeWrites,
  ) {}

  isWriting(apiKey: string): boolean {
    return this.pending.has(apiKey);
  }

  /** The key's account, once no write of one is pending. */
  async whenWritten(apiKey: string): Promise<AccountRecord | undefined> {
    for (let writing = this.pending.get(apiKey); writing; writing = this.pending.get(apiKey)) await writing.catch(() => undefined);
    return this.state().accountByKey(apiKey);
  }

  /** The key's account being written (its write's outcome), or stored, or else `seeded`'s, stored now. */
  add(seeded: SeededAccount): AccountRecord | Promise<AccountRecord> {
    const apiKey = seeded.account.apiKey;
    const writing = this.pending.get(apiKey);
    if (writing) return writing;
    return this.state().accountByKey(apiKey) ?? this.store(seeded);
  }

  /** Whether an account with that key is stored or being written. */
  isTaken(apiKey: string): boolean {
    return this.pending.has(apiKey) || this.state().accountByKey(apiKey) !== undefined;
  }

  /** Adds the account with its tags and links to memory and writes them; undone if the write fails. */
  store(seeded: SeededAccount): Promise<AccountRecord> {
    const state = this.state();
    const { account, tags, links } = seeded;
    const clash = seededClash(state, seeded);
    if (clash) return Promise.reject(clash);
    state.addAccount(account);
    for (const tag of tags) state.addTag(tag);
    for (const link of links) state.addLink(link);
    const changes: Change[] = [{ op: 'put-account', account }, ...tags.map((tag): Change => ({ op: 'put-tag', tag })), ...links.map((link): Change => ({ op: 'put-link', link }))];
    const written = this.writes.write(changes, () => state.removeAccount(account, tags, links)).then(() => account);
    this.pending.set(account.apiKey, written);
    const forget = (): void => {
      if (this.pending.get(account.apiKey) === written) this.pending.delete(account.apiKey);
    };
    written.then(forget, forget);
    return written;
  }
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
