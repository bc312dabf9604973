// Runs the store's guarded transactions (redis-txn.ts) against the generation that is current
// (redis-generations.ts). It remembers the generation it last saw, and learns of a new one from
// the script's refusal, which names it: so a reset through any instance is seen by every other at
// its very next call, with no extra round trip and no subscription to miss. When the prefix has
// no generation at all any more (Redis restarted without persistence, or flushed), it is seeded
// again, by exactly one instance, as on an empty prefix at start (D24, D25: the mock recovers).
import { COMMAND_TIMEOUT_MS, type RedisConnection } from './redis-connection.js';
import type { GenerationKeys, RedisKeys } from './redis-keys.js';
import { parseOutcome, Txn, type TxnOutcome } from './redis-txn.js';

/** A call retried on the new generation this often, when resets keep coming faster than it runs. */
const STALE_ATTEMPTS = 5;

export type Outcome = Exclude<TxnOutcome, { status: 'stale' }>;
export type Build = (txn: Txn, keys: GenerationKeys) => Txn;

/** Seeds the prefix if it holds no generation (redis-generations.ts); the generation that is current then. */
export type Reseed = () => Promise<string>;

export class TxnRunner {
  private reseeding: Promise<string> | undefined;

  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: RedisKeys,
    /** The generation last seen current. */
    public generation: string,
    private readonly reseed?: Reseed,
  ) {}

  /** Runs the transaction in the current generation, moving to a new one as often as it is refused. */
  async run(build: Build, options: { timeoutMs?: number } = {}): Promise<Outcome> {
    for (let attempt = 1; attempt <= STALE_ATTEMPTS; attempt += 1) {
      const outcome = await this.runAt(this.generation, build, options.timeoutMs);
      if (outcome.status !== 'stale') return outcome;
    }
    throw new Error(`store unavailable: the data under the Redis prefix ${this.keys.prefix} was replaced ${STALE_ATTEMPTS} times while one call ran`);
  }

  /** Runs it in `generation` only: 'stale' when that is no longer current (and this.generation is updated). */
  async runAt(generation: string, build: Build, timeoutMs = COMMAND_TIMEOUT_MS): Promise<TxnOutcome> {
    const txn = build(new Txn(this.keys.generation), this.keys.of(generation));
    const outcome = parseOutcome(await this.connection.txn(txn.keys, [generation, txn.body()], timeoutMs));
    if (outcome.status !== 'stale') return outcome;
    this.generation = outcome.generation || (await this.seedAgain());
    return { status: 'stale', generation: this.generation };
  }

  /** One reseed at a time in this instance, however many calls find the prefix empty. */
  private seedAgain(): Promise<string> {
    if (!this.reseed) throw new Error(`store unavailable: the Redis prefix ${this.keys.prefix} holds no data any more (was the database flushed?)`);
    this.reseeding ??= this.reseed().finally(() => {
      this.reseeding = undefined;
    });
    return this.reseeding;
  }

  /** The replies of a transaction that only reads. */
  async read(build: Build, timeoutMs?: number): Promise<unknown[]> {
    return (await this.run(build, timeoutMs === undefined ? {} : { timeoutMs })).replies;
  }
}
