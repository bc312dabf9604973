// The LinkStore of any number of processes sharing one Redis URL and key prefix: one mock (D21).
// Each write is one guarded transaction (redis-txn.ts), so it is atomic across every instance
// (D22), acknowledged once Redis replied (D23), and never lands in data a reset replaced (D24). A
// create is one too: its checks and its writes, with nothing held between two round trips, so an
// instance killed mid-create leaves nothing behind. The key layout is in redis-keys.ts, the reads
// in redis-link-reads.ts, the writes in redis-link-writes.ts (links and tags) and
// redis-account-writes.ts (accounts); the rules stay in the core. Every call settles within 2 s
// when Redis is gone, rejecting with `store unavailable: …` (D25), and works again once Redis is back.
import type { AccountRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import type { CreateOutcome, LinkChange, LinkStore, NewLink, SeededAccount } from '../../core/link-store.js';
import { RedisConnection, RedisStartError } from './redis-connection.js';
import { Generations, type KeptFrom } from './redis-generations.js';
import { DEFAULT_REDIS_PREFIX, prefixCollision, RedisKeys } from './redis-keys.js';
import { RedisLinkReads } from './redis-link-reads.js';
import { RedisLinkWrites } from './redis-link-writes.js';
import { RedisAccountWrites } from './redis-account-writes.js';
import { buildLinkOrder, type BuildEnd } from './redis-link-order.js';
import type { Reseed } from './redis-runner.js';

export { DEFAULT_REDIS_PREFIX } from './redis-keys.js';
export { RedisStartError } from './redis-connection.js';
export type { KeptFrom } from './redis-generations.js';

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
  /** The first connect's bound (default START_TIMEOUT_MS, redis-start.ts); tests make it small. */
  startTimeoutMs?: number;
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
  const connection = await RedisConnection.open({ url: options.url, ...(options.log ? { log: options.log } : {}), ...(options.startTimeoutMs ? { startTimeoutMs: options.startTimeoutMs } : {}) });
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
  /** The changes of links and tags (redis-link-writes.ts). */
  private readonly linkWrites: RedisLinkWrites;
  /** The accounts added and changed (redis-account-writes.ts). */
  private readonly accountWrites: RedisAccountWrites;

  constructor(
    connection: RedisConnection,
    keys: RedisKeys,
    private readonly generations: Generations,
    generation: string,
    reseed?: Reseed,
  ) {
    super(connection, keys, generation, reseed);
    this.linkWrites = new RedisLinkWrites(connection, this.runner, this.remembered, (madeIn, tag) => this.rememberTag(madeIn, tag));
    this.accountWrites = new RedisAccountWrites(connection, this.runner);
  }

  claimTagName(tag: TagRecord): Promise<{ tag: TagRecord; created: boolean }> {
    return this.linkWrites.claimTagName(tag);
  }

  createLink(create: NewLink): Promise<CreateOutcome> {
    return this.linkWrites.createLink(create);
  }

  updateLink(link: LinkRecord, change: LinkChange, _createdTags: readonly TagRecord[] = []): Promise<LinkRecord | undefined> {
    return this.linkWrites.updateLink(link, change);
  }

  deleteLink(link: LinkRecord): Promise<boolean> {
    return this.linkWrites.deleteLink(link);
  }

  addClicks(linkId: string, count: number): Promise<LinkRecord | undefined> {
    return this.linkWrites.addClicks(linkId, count);
  }

  setLinkLimit(accountId: string, linkLimit: number): Promise<AccountRecord | undefined> {
    return this.accountWrites.setLinkLimit(accountId, linkLimit);
  }

  addAccount(seeded: SeededAccount): Promise<AccountRecord> {
    return this.accountWrites.addAccount(seeded);
  }

  createAccount(seeded: SeededAccount): Promise<'stored' | 'key-taken'> {
    return this.accountWrites.createAccount(seeded);
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
}
