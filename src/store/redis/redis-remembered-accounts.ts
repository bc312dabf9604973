// What lets a create on Redis take one round trip instead of two. A request's first reads (its
// key's account, the global scenario's name and its key's own: redis-read-alongside.ts) must be
// answered before the core can decide, and with `appendfsync always` Redis holds every reply of
// a cycle, reads included, until that cycle's fsync: a create that reads first waits for two.
// So this instance remembers, per API key, the account it last read when that key had no
// scenario, global or its own; a create may be decided on that instead of a read, and its
// transaction then checks, before anything else and in the same atomic step, that the account
// record is still the one remembered and that no scenario is set (redis-link-txns.ts). When one
// of them changed (through any instance), nothing is written and the request is decided again
// on a fresh read (src/http/read-again.ts). A request answered without that transaction (an
// invalid body, an unknown domain) has what it was decided on read again before it is answered
// (stillCurrent, redis-read-alongside.ts). Either way each answer is one the mock would have given at a
// moment between the request's arrival and its answer.
import type { AccountRecord } from '../../core/model.js';

/** Keys remembered at most; past it the memory starts over (a mock with very many keys). */
const MAX_KEYS = 50_000;

/** What a remembered account stands for: when it is still so, a decision on it is sound. */
export interface RememberedBasis {
  generation: string;
  apiKey: string;
  /** The account's record exactly as stored. */
  json: string;
  /** The global scenario's name (a string key) and the names by key (a hash): neither set. */
  globalKey: string;
  byKeyKey: string;
}

export class RememberedAccounts {
  private generation = '';
  private readonly byKey = new Map<string, AccountRecord>();
  /** The basis of every account record handed out from memory (by identity: the core passes it back). */
  private readonly bases = new WeakMap<AccountRecord, RememberedBasis>();

  /** The account remembered for this key in `generation`. */
  recall(generation: string, apiKey: string): AccountRecord | undefined {
    return generation === this.generation ? this.byKey.get(apiKey) : undefined;
  }

  /** A fresh read that found the key's account with no scenario set: kept (its own copy) unless the same is kept already. */
  remember(basis: RememberedBasis): void {
    if (basis.generation !== this.generation) {
      this.generation = basis.generation;
      this.byKey.clear();
    }
    const known = this.byKey.get(basis.apiKey);
    if (known && this.bases.get(known)?.json === basis.json) return;
    if (this.byKey.size >= MAX_KEYS) this.byKey.clear();
    const account = JSON.parse(basis.json) as AccountRecord;
    this.bases.set(account, basis);
    this.byKey.set(basis.apiKey, account);
  }

  /** Undefined for a record that was read fresh: it needs no check. */
  basisOf(account: AccountRecord): RememberedBasis | undefined {
    return this.bases.get(account);
  }

  /** Found out of date: the next request of this key reads afresh. */
  forget(basis: RememberedBasis): void {
    const known = this.byKey.get(basis.apiKey);
    if (known && this.bases.get(known) === basis) this.byKey.delete(basis.apiKey);
  }
}
