// A request's first reads on Redis (redis-link-reads.ts: namesWithAccount, accountByKey,
// stillCurrent): its key's account read in the one script call that reads its scenario names, and
// taken by the request's authentication in the same turn; or, when this instance remembers the
// key's account with no scenario set, no read at all, and what that account was handed out on
// checked before an answer that did not check it (redis-remembered-accounts.ts).
import type { AccountRecord } from '../../core/model.js';
import type { RedisConnection } from './redis-connection.js';
import { decodeJson } from './redis-records.js';
import type { RememberedAccounts } from './redis-remembered-accounts.js';
import type { Build, TxnRunner } from './redis-runner.js';

const NO_NAMES: [unknown, unknown] = [null, null];

/** The key's account, the global scenario's name and the key's own, in that order. */
const accountAndNames =
  (apiKey: string, globalKey: string, byKeyKey: string): Build =>
  (t, k) =>
    t.read('HGET', k.accounts, apiKey).read('GET', globalKey).read('HGET', byKeyKey, apiKey);

export class ReadAlongside {
  /** Account reads made this turn along with a scenario read (namesWithAccount), by key: an accountByKey of the same turn shares it. */
  private readonly accountsAlongside = new Map<string, Promise<AccountRecord | undefined>>();

  constructor(
    private readonly connection: RedisConnection,
    private readonly runner: TxnRunner,
    /** Accounts read with no scenario set, for creates decided without a first read. */
    private readonly remembered: RememberedAccounts,
  ) {}

  /** The key's account read along with its scenario names in this turn, if any: the request's authentication takes it. */
  accountReadThisTurn(apiKey: string): Promise<AccountRecord | undefined> | undefined {
    return this.accountsAlongside.get(apiKey);
  }

  /**
   * Two values of the traffic state (`GET globalKey`, `HGET byKeyKey apiKey`: a request's scenario
   * names) and the key's account, in one step: a request's first reads, sent as one script call
   * instead of two. The account is as fresh as a read of its own sent at this moment, so an
   * accountByKey for this key in the same turn (the request's authentication) takes it.
   * With `recall`, and when this instance remembers the key's account with no scenario set, no
   * read at all: the account handed out carries that basis, which its create checks
   * (redis-remembered-accounts.ts).
   */
  namesWithAccount(apiKey: string, globalKey: string, byKeyKey: string, recall = false): Promise<[unknown, unknown]> {
    const remembered = recall ? this.remembered.recall(this.runner.generation, apiKey) : undefined;
    if (remembered) {
      this.alongside(apiKey, Promise.resolve(remembered));
      return Promise.resolve(NO_NAMES);
    }
    const read = this.connection.bounded(() => this.runner.run(accountAndNames(apiKey, globalKey, byKeyKey)));
    const account = read.then(({ generation, replies: [json, global, key] }) => {
      if (typeof json === 'string' && global == null && key == null) this.remembered.remember({ generation, apiKey, json, globalKey, byKeyKey });
      return decodeJson<AccountRecord>(json);
    });
    this.alongside(apiKey, account);
    return read.then(({ replies: [, global, key] }) => [global, key]);
  }

  /**
   * Whether what this account record was handed out on (from memory) still holds: the same record
   * and no scenario, in the same generation. Always true for a record read fresh.
   */
  async stillCurrent(account: AccountRecord): Promise<boolean> {
    const basis = this.remembered.basisOf(account);
    if (!basis) return true;
    const outcome = await this.connection.bounded(() => this.runner.runAt(basis.generation, accountAndNames(basis.apiKey, basis.globalKey, basis.byKeyKey)));
    const current = outcome.status === 'ok' && outcome.replies[0] === basis.json && outcome.replies[1] == null && outcome.replies[2] == null;
    if (!current) this.remembered.forget(basis);
    return current;
  }

  /** The request's authentication in this turn takes this account read. */
  private alongside(apiKey: string, account: Promise<AccountRecord | undefined>): void {
    // A failure is the authentication's to report, if it takes this read; never unhandled.
    account.catch(() => undefined);
    this.accountsAlongside.set(apiKey, account);
    queueMicrotask(() => {
      if (this.accountsAlongside.get(apiKey) === account) this.accountsAlongside.delete(apiKey);
    });
  }
}
