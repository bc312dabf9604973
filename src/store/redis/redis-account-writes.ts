// The accounts the Redis store adds and changes (redis-link-store.ts: setLinkLimit, addAccount,
// createAccount), each one guarded transaction (redis-txn.ts) bounded as every write is
// (redis-write-bound.ts): an account with its tags and links is stored in one step, only if its
// key is new and nothing it brings is taken.
import type { AccountRecord } from '../../core/model.js';
import { SeededAccountClash, type SeededAccount } from '../../core/link-store.js';
import type { RedisConnection } from './redis-connection.js';
import { ACCOUNT_TAKEN, addAccountTxn, isSlugCheck } from './redis-link-txns.js';
import { decodeJson } from './redis-records.js';
import type { TxnRunner } from './redis-runner.js';
import { boundedWrite, CAS_ATTEMPTS } from './redis-write-bound.js';

export class RedisAccountWrites {
  constructor(
    private readonly connection: RedisConnection,
    private readonly runner: TxnRunner,
  ) {}

  /** Compare-and-set of the account's record. */
  setLinkLimit(accountId: string, linkLimit: number): Promise<AccountRecord | undefined> {
    return boundedWrite(this.connection, async () => {
      let stored = (await this.runner.read((t, k) => t.readVia(k.accountIds, accountId, k.accounts)))[0];
      for (let attempt = 0; attempt < CAS_ATTEMPTS && typeof stored === 'string'; attempt += 1) {
        const expected: string = stored;
        const account: AccountRecord = { ...(JSON.parse(expected) as AccountRecord), linkLimit };
        const outcome = await this.runner.run((t, k) =>
          t.check('equals?', k.accounts, account.apiKey, expected).write('HSET', k.accounts, account.apiKey, JSON.stringify(account)).otherwise('HGET', k.accounts, account.apiKey),
        );
        if (outcome.status === 'ok') return account;
        stored = outcome.replies[0];
      }
      if (typeof stored === 'string') throw new Error(`store unavailable: account ${accountId} changed under ${CAS_ATTEMPTS} updates in a row`);
      return undefined;
    });
  }

  /** All of it in one step, only if the key is new and nothing it brings is taken. */
  async addAccount(seeded: SeededAccount): Promise<AccountRecord> {
    const outcome = await this.storeAccount(seeded);
    return outcome.stored ? seeded.account : (decodeJson<AccountRecord>(outcome.existing) as AccountRecord);
  }

  /** The same one step; acknowledged by Redis, so as durable as any change. */
  async createAccount(seeded: SeededAccount): Promise<'stored' | 'key-taken'> {
    return (await this.storeAccount(seeded)).stored ? 'stored' : 'key-taken';
  }

  /** Stores the seeded account if its key is new; otherwise reads the key's stored account in the same step. */
  private storeAccount(seeded: SeededAccount): Promise<{ stored: true } | { stored: false; existing: unknown }> {
    return boundedWrite(this.connection, async () => {
      const outcome = await this.runner.run((t, k) => addAccountTxn(t, k, seeded));
      if (outcome.status === 'ok') return { stored: true };
      if (outcome.failed === ACCOUNT_TAKEN) return { stored: false, existing: outcome.replies[0] };
      throw new SeededAccountClash(isSlugCheck(seeded, outcome.failed) ? 'slug' : 'id');
    });
  }
}
