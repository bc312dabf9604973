// --accept-any-key: an unknown API key becomes an account of its own on first use (SPEC), seeded
// from the key, while the store holds fewer accounts than the cap. No HTTP here.
import { andThen, type Awaitable } from './awaitable.js';
import { API_KEY_SHAPE } from './api-key-shape.js';
import { errors } from './errors.js';
import { SeededAccountClash, type LinkStore, type SeededAccount } from './link-store.js';
import type { AccountRecord } from './model.js';
import { saved } from './saved.js';

/** A new key's account seeded again this often when others took its slugs meanwhile (each time clear of them). */
const SEED_ATTEMPTS = 5;
/**
 * --max-any-key-accounts: an account made for a key holds 4.6 KiB of heap (its 3 tags and 5 links
 * with their indexes; measured over 10,000 on the file store's memory: 44.9 MiB), so a client
 * inventing keys grows the data by at most some 45 MiB.
 */
export const DEFAULT_MAX_ANY_KEY_ACCOUNTS = 10_000;

/** --accept-any-key: the account seeded for an unknown key (undefined: unknown keys are a 401). */
export type AccountFactory = (apiKey: string) => SeededAccount | Promise<SeededAccount>;

/**
 * An unknown key let through authentication under --accept-any-key, its account not made yet: it
 * is made only when a request of the key is served (LinkService.accountToServe), so a request
 * refused before that (an invalid body, a scenario's forced answer, a fault) changes nothing (D19).
 */
export class UnmadeAccount {
  constructor(readonly apiKey: string) {}
}

/**
 * Whether an unknown key may have an account made for it: an UnmadeAccount, or a 401 when unknown
 * keys are refused (undefined) or the store holds `maxAccounts` already. Makes nothing.
 */
export function admitNewKey(store: LinkStore, apiKey: string, createAccount: AccountFactory | undefined, maxAccounts: number | undefined): Awaitable<UnmadeAccount> {
  if (!createAccount) throw errors.unknownApiKey();
  // A key no client of a real account could have is made none: each account keeps its key, and a header may hold 16 KiB.
  if (!API_KEY_SHAPE.pattern.test(apiKey)) throw errors.anyKeyNotShaped(API_KEY_SHAPE.says);
  if (maxAccounts === undefined) return new UnmadeAccount(apiKey);
  return andThen(store.accountCount(), (count) => {
    if (count >= maxAccounts) throw errors.anyKeyCapReached(maxAccounts);
    return new UnmadeAccount(apiKey);
  });
}

/**
 * The account made for a key the store does not know, or undefined when unknown keys are refused.
 * Made while the store holds fewer than `maxAccounts` (checked before, not in the store's step:
 * requests making accounts at that moment may pass it by as many as they are). Seeded again, clear
 * of it, when another request took one of its slugs meanwhile.
 */
export async function accountForNewKey(store: LinkStore, apiKey: string, createAccount: AccountFactory | undefined, maxAccounts: number | undefined): Promise<AccountRecord | undefined> {
  if (!createAccount) return undefined;
  if (maxAccounts !== undefined && (await store.accountCount()) >= maxAccounts) throw errors.anyKeyCapReached(maxAccounts);
  for (let attempt = 1; ; attempt += 1) {
    const seeded = await createAccount(apiKey);
    // Written before it is handed out: one that cannot be is a 500 that says so, and made nothing.
    const stored = await saved(store.addAccount(seeded).catch(clashAsOutcome));
    if (!(stored instanceof SeededAccountClash)) return stored;
    if (stored.clash === 'id' || attempt === SEED_ATTEMPTS) throw errors.internal(`--accept-any-key: ${stored.message}`);
  }
}

/** A seeded account the store refused as it was is an outcome to act on, not a failed write. */
function clashAsOutcome(error: unknown): SeededAccountClash {
  if (error instanceof SeededAccountClash) return error;
  throw error;
}
