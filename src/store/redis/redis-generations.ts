// Generations: how the Redis store seeds a prefix exactly once and replaces its data atomically
// for every instance (D24). New data is written under a fresh generation no one reads, then one
// command makes it current: `SET generation <new> NX` for a seed (of several instances seeding an
// empty prefix at once, exactly one wins; the others delete what they wrote), the SWITCH script
// for a replace, which also deletes the traffic state's `times` counters (global and per API key)
// under the same prefix: a reset or restore starts them over in that very step, so no instance
// counts a rule against the old counts on the new data, and no later clear erases a use counted
// since. Every store call runs
// against the generation it names and is refused by the script once that is no longer current
// (redis-txn.ts), so no instance reads or writes a mix of old and new: it notices at its next
// call, from the refusal itself, and moves to the new generation.
// The new generation is written in batches (redis-data.ts: WRITE_BATCH records a command, at most
// WRITES_IN_FLIGHT commands unanswered), so each command answers within its deadline at any size;
// a writer that stops half-way (killed, Redis gone) leaves a generation no one reads, swept later.
// The replaced generation is deleted right after the switch. `generations` lists every
// generation written and not yet deleted, so what a writer that crashed left behind is swept.
// Each generation's meta names the Redis connection that wrote it (`seededBy`, its CLIENT ID): an
// instance that keeps the data at start says whether the writer is connected to Redis now
// (another instance seeded it and runs) or not (an earlier run did), see keptFrom.
import { randomBytes } from 'node:crypto';
import type { MockData } from '../../core/model.js';
import { BULK_TIMEOUT_MS, type RedisConnection } from './redis-connection.js';
import { generationCommands, WRITE_BATCH } from './redis-data.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * Who wrote the data a start kept: `another-instance` while the connection that wrote it is still
 * connected to Redis (an instance that seeded it, reset or restored it, and runs now),
 * `earlier-run` once it is not (that instance stopped, was killed, or its connection was re-made
 * since), `unknown` when Redis will not list its connections (an ACL, Redis before 6.2) or the
 * data names no writer (written by a version before this rule, or one that did not learn its id).
 */
export type KeptFrom = 'another-instance' | 'earlier-run' | 'unknown';

/** A generation not current whose writing began this long ago was left by a writer that died. */
export const ABANDONED_MS = 10 * 60_000;
/**
 * Commands sent at once while writing a generation (about 1 MB): Redis is kept busy between round
 * trips. Each command is given BULK_TIMEOUT_MS from the answer of the one ahead of it
 * (RedisConnection.sendInOrder), so the window's size never adds up against one command's bound:
 * at 1,000,000 links on a loaded machine the mock's own event loop stood still 0.5-2 s every few
 * seconds for minutes while it wrote, and the request bound of 1 s failed the seed.
 */
export const WRITES_IN_FLIGHT = 8;
const SCAN_COUNT = 1_000;
/** The meta field naming the connection (its Redis CLIENT ID) that wrote a generation. */
const SEEDED_BY = 'seededBy';
/** Bounds the SCAN of a deletion: a million rounds of 1,000 keys. */
const MAX_SCAN_ROUNDS = 1_000_000;

/** The `times` counters of the traffic state under `prefix`, global and per API key (redis-scenario-state.ts: key('times'), key('times-by-key')). */
const timesKeys = (prefix: string): string[] => [`${prefix}traffic:times`, `${prefix}traffic:times-by-key`];

/** KEYS: generation, global times counters, per-key times counters. ARGV: the new generation. Answers the one replaced (nil: none). */
const SWITCH = `local previous = redis.call('SET', KEYS[1], ARGV[1], 'GET')
redis.call('DEL', KEYS[2], KEYS[3])
return previous`;

export class Generations {
  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: RedisKeys,
    private readonly log: (line: string) => void = () => undefined,
    /** Records per command while a generation is written (tests make it small, to write in many batches). */
    private readonly writeBatch = WRITE_BATCH,
  ) {}

  async current(): Promise<string | undefined> {
    const reply = await this.send(['GET', this.keys.generation]);
    return typeof reply === 'string' ? reply : undefined;
  }

  /** The prefix's generation; seeds it first if it has none. Only the one instance whose seed became current says `seeded`. */
  async seedIfEmpty(seed: () => Promise<MockData>): Promise<{ generation: string; seeded: boolean }> {
    const existing = await this.current();
    if (existing) return { generation: existing, seeded: false };
    const written = await this.write(await seed());
    if ((await this.send(['SET', this.keys.generation, written, 'NX'])) === 'OK') return { generation: written, seeded: true };
    await this.retire(written);
    const winner = await this.current();
    if (!winner) throw new Error(`store unavailable: the Redis prefix ${this.keys.prefix} lost its data while it was being seeded`);
    return { generation: winner, seeded: false };
  }

  /** Who wrote `generation`, kept by this start (see KeptFrom). Only words of the banner: a failure to ask is `unknown`, never a failed start. */
  async keptFrom(generation: string): Promise<KeptFrom> {
    try {
      const writer = await this.send(['HGET', this.keys.of(generation).meta, SEEDED_BY]);
      if (typeof writer !== 'string' || writer === '') return 'unknown';
      const connected = await this.connection.connected([writer]);
      if (!connected) return 'unknown';
      return connected.has(writer) ? 'another-instance' : 'earlier-run';
    } catch {
      return 'unknown';
    }
  }

  /**
   * Writes `data` as a new generation and makes it current, the `times` counters deleted, in one
   * script; the replaced one is deleted after. The mock clears no counter after this (mock.ts).
   */
  async replace(data: MockData): Promise<string> {
    const written = await this.write(data);
    const previous = await this.send(['EVAL', SWITCH, '3', this.keys.generation, ...timesKeys(this.keys.prefix), written]);
    if (typeof previous === 'string') await this.retire(previous);
    return written;
  }

  /** Deletes the generations writers that died left behind (never the current one). */
  async sweep(now = Date.now()): Promise<void> {
    const current = await this.current();
    const abandoned = (await this.send(['ZRANGE', this.keys.generations, '-inf', String(now - ABANDONED_MS), 'BYSCORE'])) as string[];
    for (const generation of abandoned) if (generation !== current) await this.retire(generation);
  }

  /**
   * A fresh generation holding `data`, listed in `generations` before its first key is written.
   * When a write fails (Redis out of memory, say), what was written is deleted at once, not left
   * for a sweep 10 minutes later, and the failure thrown: nothing changed.
   */
  private async write(data: MockData): Promise<string> {
    const generation = randomBytes(8).toString('hex');
    await this.send(['ZADD', this.keys.generations, String(Date.now()), generation]);
    const keys = this.keys.of(generation);
    const writer: string[][] = this.connection.clientId ? [['HSET', keys.meta, SEEDED_BY, this.connection.clientId]] : [];
    const commands = concat(generationCommands(keys, data, this.writeBatch), writer);
    for (let window = nextWindow(commands); window.length > 0; window = nextWindow(commands)) {
      // Every command of the window settled before a failure is acted on: none lands after the deletion.
      const sent = await this.connection.sendInOrder(window, BULK_TIMEOUT_MS);
      const failed = sent.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failed) {
        await this.retire(generation);
        throw failed.reason;
      }
    }
    return generation;
  }

  /**
   * Deletes a generation no longer current (or never made current): no write lands there any more,
   * as every write checks the generation. Scored 0 first, so that if this stops half-way the next
   * sweep finishes it; that score is a write, which a Redis out of memory refuses, while deleting
   * is not: then the keys are deleted all the same. A failure is logged, not thrown: the switch it
   * follows has happened (or the failure of the write it follows is what is thrown).
   */
  private async retire(generation: string): Promise<void> {
    try {
      await this.send(['ZADD', this.keys.generations, '0', generation]).catch(() => undefined);
      let cursor = '0';
      for (let round = 0; round < MAX_SCAN_ROUNDS; round += 1) {
        const [next, found] = (await this.send(['SCAN', cursor, 'MATCH', this.keys.patternOf(generation), 'COUNT', String(SCAN_COUNT)])) as [string, string[]];
        if (found.length > 0) await this.send(['UNLINK', ...found]);
        cursor = next;
        if (cursor === '0') break;
      }
      if (cursor !== '0') throw new Error(`its keys were not all found after ${MAX_SCAN_ROUNDS} SCAN rounds`);
      await this.send(['ZREM', this.keys.generations, generation]);
    } catch (error) {
      this.log(`could not delete the replaced data (generation ${generation}) under the Redis prefix ${this.keys.prefix}: ${(error as Error).message}; it is retried at the next start`);
    }
  }

  /** With the timeout of any command: each is small, so a Redis that stopped answering fails it within a second. */
  private send(args: string[]): Promise<unknown> {
    return this.connection.send(args);
  }
}

/** The next WRITES_IN_FLIGHT commands (fewer at the end, none when done), made only now. */
function nextWindow(commands: Iterator<string[]>): string[][] {
  const window: string[][] = [];
  for (let next = commands.next(); !next.done; next = commands.next()) {
    window.push(next.value);
    if (window.length === WRITES_IN_FLIGHT) break;
  }
  return window;
}

function* concat<T>(...parts: Array<Iterable<T>>): Generator<T> {
  for (const part of parts) yield* part;
}
