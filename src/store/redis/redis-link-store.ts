// The LinkStore of any number of processes sharing one Redis URL and key prefix: one mock (D21).
// Each write is one guarded transaction (redis-txn.ts), so it is atomic across every instance
// (D22), acknowledged once Redis replied (D23), and never lands in data a reset replaced (D24). A
// create is one too: its checks and its writes, with nothing held between two round trips, so an
// instance killed mid-create leaves nothing behind. The key layout is in redis-keys.ts, the reads in redis-link-reads.ts; the rules
// stay in the core. Every call settles within 2 s when Redis is gone, rejecting with
// `store unavailable: …` (D25), and works again once Redis is back.
import type { AccountRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import { SeededAccountClash, type CreateOutcome, type LinkChange, type LinkStore, type NewLink, type SeededAccount } from '../../core/link-store.js';
import { RedisConnection, RedisStartError } from './redis-connection.js';
import { Generations, type KeptFrom } from './redis-generations.js';
import { DEFAULT_REDIS_PREFIX, prefixCollision, RedisKeys, tagNameField } from './redis-keys.js';
import { RedisLinkReads } from './redis-link-reads.js';
import { ACCOUNT_TAKEN, addAccountTxn, createTxn, deleteTxn, isSlugCheck } from './redis-link-txns.js';
import { decodeJson, decodeLink, encodeLink } from './redis-records.js';
import { buildLinkOrder, type BuildEnd } from './redis-link-order.js';
import type { Build, Reseed } from './redis-runner.js';

export { DEFAULT_REDIS_PREFIX } from './redis-keys.js';
export { RedisStartError } from './redis-connection.js';
export type { KeptFrom } from './redis-generations.js';

/** A compare-and-set retried on a changed record this often (each retry is one round trip). */
const CAS_ATTEMPTS = 16;

const replaced = (what: string): Error => new Error(`${what}: the data was replaced (reset or snapshot restore) while this request ran`);

export interface OpenRedisLinkStoreOptions {
  /** redis://[user:pass@]host:port[/n], rediss://… (D20) or unix:///path.sock[?db=n] (redis-address.ts). */
  url: string;
  /** Namespaces every key (default `shortlink-mock:`). */
  prefix?: string;
  /** The data of an empty prefix, or of a reset: called only when it is needed. */
  seed: () => Promise<MockData>;
  /** Replace whatever the prefix holds with a fresh seed (D24). */
  reset: boolean;
  /** One line when Redis goes away and comes back, or when old data could not be deleted. */
  log?: (line: string) => void;
  /** Records per command while a seed, reset or restore is written (default WRITE_BATCH, redis-data.ts); tests make it small. */
  writeBatch?: number;
}

/**
 * Connects, sweeps what crashed writers of whole generations left, and seeds the prefix when it is empty (exactly one
 * of several instances starting at once seeds it) or when `reset` asks. Rejects with a one-line
 * RedisStartError naming the URL when Redis cannot be reached or the prefix holds no usable data.
 */
export async function openRedisLinkStore(options: OpenRedisLinkStoreOptions): Promise<{ store: RedisLinkStore; seeded: boolean; keptFrom?: KeptFrom }> {
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  const collision = prefixCollision(prefix);
  if (collision) throw new RedisStartError(`the Redis prefix ${collision}`);
  const connection = await RedisConnection.open({ url: options.url, ...(options.log ? { log: options.log } : {}) });
  const keys = new RedisKeys(prefix);
  try {
    const generations = new Generations(connection, keys, options.log, options.writeBatch);
    await generations.sweep();
    const opened = options.reset ? { generation: await generations.replace(await options.seed()), seeded: true } : await generations.seedIfEmpty(options.seed);
    // Data lost later (Redis restarted without persistence, or flushed) is seeded again, once.
    const reseed = async (): Promise<string> => {
      const again = await generations.seedIfEmpty(options.seed);
      if (again.seeded) options.log?.(`the Redis prefix ${keys.prefix} at ${connection.location} held no data any more (Redis restarted without persistence, or flushed?): seeded it again`);
      return again.generation;
    };
    const store = new RedisLinkStore(connection, keys, generations, opened.generation, reseed);
    if (!(await store.hasData())) {
      throw new RedisStartError(`the Redis prefix ${keys.prefix} at ${connection.location} names a generation that holds no data; start with --reset to re-seed it`);
    }
    if (opened.seeded) return { store, seeded: true };
    const keptFrom = await generations.keptFrom(opened.generation);
    // Data written before the page order existed gets it while the mock serves (not awaited).
    store.startLinkOrderBuild(options.log);
    return { store, seeded: false, keptFrom };
  } catch (error) {
    await connection.close();
    if (error instanceof RedisStartError) throw error;
    throw new RedisStartError(`cannot open the data under the Redis prefix ${keys.prefix} at ${connection.location}: ${(error as Error).message}`);
  }
}

export class RedisLinkStore extends RedisLinkReads implements LinkStore {
  /** How this instance's build of the page order ended (redis-link-order.ts): 'already' when none was needed. */
  linkOrderBuilt: Promise<BuildEnd> = Promise.resolve('already');
  private closing = false;

  constructor(
    connection: RedisConnection,
    keys: RedisKeys,
    private readonly generations: Generations,
    generation: string,
    reseed?: Reseed,
  ) {
    super(connection, keys, generation, reseed);
  }

  /** The record and its name in one step, so a name never points at a missing tag; the first claim wins. */
  claimTagName(tag: TagRecord): Promise<{ tag: TagRecord; created: boolean }> {
    const field = tagNameField(tag.accountId, tag.name);
    const json = JSON.stringify(tag);
    return this.write(async () => {
      const outcome = await this.runner.run((t, k) =>
        t.check('lacks?', k.tagNames, field).write('HSET', k.tagNames, field, json).write('HSET', k.tags, tag.id, json).otherwise('HGET', k.tagNames, field),
      );
      const claimed = outcome.status === 'ok' ? { tag, created: true } : { tag: decodeJson<TagRecord>(outcome.replies[0]) as TagRecord, created: false };
      this.rememberTag(outcome.generation, claimed.tag);
      return claimed;
    });
  }

  /**
   * One transaction: in the generation current when it runs, so a create racing a reset is checked
   * against the new data; or, decided on a remembered account, in that account's generation only,
   * after checking that what it was remembered on still holds ('reread' otherwise).
   */
  createLink(create: NewLink): Promise<CreateOutcome> {
    const basis = create.account && this.remembered.basisOf(create.account);
    return this.write(async () => {
      let outcomeOf: (failed: number) => CreateOutcome = () => 'gone';
      const build: Build = (t, k) => {
        outcomeOf = createTxn(t, k, create, basis);
        return t;
      };
      const outcome = basis ? await this.runner.runAt(basis.generation, build) : await this.runner.run(build);
      if (outcome.status !== 'ok') {
        const refused = outcome.status === 'stale' ? 'reread' : outcomeOf(outcome.failed);
        if (refused === 'reread' && basis) this.remembered.forget(basis);
        return refused;
      }
      for (const tag of create.newTags) this.rememberTag(outcome.generation, tag);
      return 'stored';
    });
  }

  /** Compare-and-set of the link's record against the one the core read: mostly one round trip. */
  updateLink(link: LinkRecord, change: LinkChange, _createdTags: readonly TagRecord[] = []): Promise<LinkRecord | undefined> {
    return this.write(async () => {
      let expected = encodeLink(link);
      for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
        const next = encodeLink(changed(JSON.parse(expected) as LinkRecord, change));
        const outcome = await this.runner.run((t, k) => {
          t.check('equals?', k.links, link.id, expected);
          for (const tagId of change.tagIds ?? []) t.check('has?', k.tags, tagId);
          return t.write('HSET', k.links, link.id, next).read('HGET', k.clicks, link.id).otherwise('HGET', k.links, link.id);
        });
        if (outcome.status === 'ok') return decodeLink(next, outcome.replies[0]);
        if (outcome.failed > 1) throw replaced(`a tag of link ${link.id} is gone`);
        const stored = outcome.replies[0];
        if (typeof stored !== 'string') return undefined;
        expected = stored;
      }
      throw new Error(`store unavailable: link ${link.id} changed under ${CAS_ATTEMPTS} updates in a row`);
    });
  }

  deleteLink(link: LinkRecord): Promise<boolean> {
    return this.write(async () => (await this.runner.run((t, k) => deleteTxn(t, k, link))).status === 'ok');
  }

  /** An increment in place, only if the link is there. */
  addClicks(linkId: string, count: number): Promise<LinkRecord | undefined> {
    return this.write(async () => {
      const outcome = await this.runner.run((t, k) =>
        t.check('has?', k.links, linkId).write('HINCRBY', k.clicks, linkId, count).read('HGET', k.links, linkId).read('HGET', k.clicks, linkId),
      );
      return outcome.status === 'ok' ? decodeLink(outcome.replies[0], outcome.replies[1]) : undefined;
    });
  }

  /** Compare-and-set of the account's record. */
  setLinkLimit(accountId: string, linkLimit: number): Promise<AccountRecord | undefined> {
    return this.write(async () => {
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
    return this.write(async () => {
      const outcome = await this.runner.run((t, k) => addAccountTxn(t, k, seeded));
      if (outcome.status === 'ok') return { stored: true };
      if (outcome.failed === ACCOUNT_TAKEN) return { stored: false, existing: outcome.replies[0] };
      throw new SeededAccountClash(isSlugCheck(seeded, outcome.failed) ? 'slug' : 'id');
    });
  }

  /** A new generation, current for every instance at once (redis-generations.ts). Not bounded by 2 s: it can be large. */
  async replaceAll(data: MockData): Promise<void> {
    this.runner.generation = await this.generations.replace(data);
  }

  /** Gives the current generation its page order if it has none, in the background; a failure is one log line (pages stay right, read whole). */
  startLinkOrderBuild(log?: (line: string) => void): void {
    const generation = this.runner.generation;
    this.linkOrderBuilt = buildLinkOrder(this.runner, generation, () => this.closing).then(
      (end) => {
        if (end === 'built') log?.(`the data under the Redis prefix ${this.keys.prefix} was written before the page order of links existed: gave it one`);
        return end;
      },
      (error: unknown) => {
        if (!this.closing) log?.(`could not give the data under the Redis prefix ${this.keys.prefix} its page order of links (pages read every link of an account until a restart does): ${(error as Error).message}`);
        return 'stopped';
      },
    );
  }

  /** Nothing is pending: every acknowledged write was acknowledged by Redis. */
  close(): Promise<void> {
    this.closing = true;
    return this.connection.close();
  }

  /** A write that timed out may still be made once Redis answers: its message says so. */
  private write<T>(call: () => Promise<T>): Promise<T> {
    return this.connection.bounded(call).catch((error: unknown) => {
      if (!/^store unavailable: .* did not answer within \d+ ms$/.test((error as Error).message)) throw error;
      throw new Error(`${(error as Error).message}; the change may have been made`);
    });
  }
}

/** Only the fields the update sends. */
function changed(link: LinkRecord, change: LinkChange): LinkRecord {
  return {
    ...link,
    ...(change.destinationUrl === undefined ? {} : { destinationUrl: change.destinationUrl }),
    ...(change.tagIds === undefined ? {} : { tagIds: change.tagIds }),
    ...(change.extra === undefined ? {} : { extra: change.extra }),
  };
}
