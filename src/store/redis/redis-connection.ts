// The Redis store's one connection (node-redis), set up for D25: a start against an unreachable
// Redis fails naming the URL, at once or, when Redis does not answer, within 5 s (redis-start.ts);
// later, every command settles quickly when Redis is gone (no offline queue: refused at once while
// reconnecting; a timeout for a server that stopped answering) with an Error whose message starts
// `store unavailable: `; and the client reconnects by itself, with a backoff (redis-client.ts), so
// the store works again soon after Redis.
// One connection is enough: commands from concurrent requests are pipelined on it, and nothing
// the store does holds connection state (no WATCH, no MULTI spanning awaits).
import type { RedisClientType } from 'redis';
import { TXN_SCRIPT } from './redis-txn.js';
import { createHash } from 'node:crypto';
import { DeadlineError, inOrder, within } from './deadline.js';
import { clientOptions, describeError, redactUrl, unavailableError } from './redis-client.js';
import { RedisHealthWatch } from './redis-health-watch.js';
import { connectAtStart } from './redis-start.js';

/** A command sent to a server that stopped answering fails after this long. */
export const COMMAND_TIMEOUT_MS = 1_000;
/** A whole store call (a few commands in sequence) settles within this long: D25's 2 s, with room. */
export const CALL_DEADLINE_MS = 1_800;
/** Whole-state commands (a snapshot, a replace of the data) move much more: they get longer. */
export const BULK_TIMEOUT_MS = 5_000;
const TXN_SHA = createHash('sha1').update(TXN_SCRIPT).digest('hex');

export class RedisStartError extends Error {
  override name = 'RedisStartError';
}

type Client = RedisClientType;
type RedisModule = typeof import('redis');

export interface RedisConnectionOptions {
  url: string;
  /** One line when Redis goes away and when it is back. */
  log?: (line: string) => void;
  /** The first connect's bound (default START_TIMEOUT_MS, redis-start.ts); tests make it small. */
  startTimeoutMs?: number;
}

export class RedisConnection {
  /** Commands sent, and round trips: sends made while no other command was waiting (measures). */
  readonly stats = { commands: 0, roundTrips: 0 };
  private inFlight = 0;
  private timedOut = false;
  private readonly watch: RedisHealthWatch;
  /** Redis's id of this connection ('' until known, and after a reconnect until known again): names who holds a claim. */
  clientId = '';

  private constructor(
    private readonly client: Client,
    private readonly redis: RedisModule,
    /** The URL without its password, for messages and logs. */
    readonly location: string,
    log: ((line: string) => void) | undefined,
  ) {
    // Each ready connection is new to Redis: no timeout pending, another id.
    this.watch = new RedisHealthWatch(client, location, log, () => {
      this.timedOut = false;
      this.clientId = '';
      void this.learnClientId();
    });
  }

  /** Connects, or rejects with a RedisStartError naming the URL (D25: exit 2 with one line). */
  static async open(options: RedisConnectionOptions): Promise<RedisConnection> {
    const location = redactUrl(options.url);
    const redis = await import('redis');
    let ready = false;
    let client: Client;
    try {
      client = redis.createClient(clientOptions(options.url, () => ready, (cause) => new Error(describeError(cause)))) as unknown as Client;
    } catch (error) {
      throw new RedisStartError(`cannot connect to Redis at ${location}: ${describeError(error)}`);
    }
    const connection = new RedisConnection(client, redis, location, options.log);
    try {
      await connectAtStart(client, options.startTimeoutMs);
    } catch (error) {
      throw new RedisStartError(`cannot connect to Redis at ${location}: ${(error as Error).message}`);
    }
    ready = true;
    await connection.learnClientId();
    return connection;
  }

  /**
   * One command; any failure is a `store unavailable: ` Error. Its reply is awaited `timeoutMs` at
   * most: node-redis's own command timeout stops counting once the command is written, so a Redis
   * that stopped answering would keep it waiting for ever. A reply that comes later is dropped.
   */
  async send(args: readonly string[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<unknown> {
    this.stats.commands += 1;
    if (this.inFlight === 0) this.stats.roundTrips += 1;
    this.inFlight += 1;
    const command = this.client.sendCommand(args);
    try {
      const reply = await within(command, timeoutMs, () => `store unavailable: Redis at ${this.location} did not answer within ${timeoutMs} ms`);
      this.timedOut = false;
      return reply;
    } catch (error) {
      this.timedOut ||= error instanceof DeadlineError;
      throw this.unavailable(error);
    } finally {
      this.inFlight -= 1;
    }
  }

  /**
   * Commands sent at once (pipelined), their outcomes in order. Redis answers them one after the
   * other, so each is given `timeoutMs` from the answer of the one ahead of it, not from when it was
   * sent: the last of eight waits for seven others' work too, which alone came near the bound on a
   * busy machine. A Redis that stopped answering fails the first within `timeoutMs`, and the rest
   * with it at once.
   */
  async sendInOrder(commands: ReadonlyArray<readonly string[]>, timeoutMs = COMMAND_TIMEOUT_MS): Promise<Array<PromiseSettledResult<unknown>>> {
    // Each one's own bound is the whole window's: the bound that matters is the one from the answer ahead.
    const replies = commands.map((args) => this.send(args, timeoutMs * commands.length));
    const outcomes = await inOrder(replies, timeoutMs, () => `store unavailable: Redis at ${this.location} did not answer within ${timeoutMs} ms`);
    this.timedOut ||= outcomes.some((outcome) => outcome.status === 'rejected' && outcome.reason instanceof DeadlineError);
    return outcomes;
  }

  /** The guarded transaction script (redis-txn.ts): by its SHA, loading it once per server. */
  async txn(keys: readonly string[], args: readonly string[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.send(['EVALSHA', TXN_SHA, ...tail], timeoutMs);
    } catch (error) {
      // A restarted Redis has forgotten the script; EVAL runs it and caches it again.
      if (!/NOSCRIPT/.test((error as Error).message)) throw error;
      return this.send(['EVAL', TXN_SCRIPT, ...tail], timeoutMs);
    }
  }

  /** `call` settled within CALL_DEADLINE_MS, or a `store unavailable: ` rejection. */
  bounded<T>(call: () => Promise<T>): Promise<T> {
    return within(call(), CALL_DEADLINE_MS, () => `store unavailable: Redis at ${this.location} did not answer within ${CALL_DEADLINE_MS} ms`);
  }

  /** False while Redis is known not to answer: not connected, or a command timed out and no reply came since. */
  get answering(): boolean {
    return this.client.isReady && !this.timedOut;
  }

  /** Calls `listener` each time the connection is ready again after Redis went away. */
  onBack(listener: () => void): void {
    this.watch.onBack(listener);
  }

  async health(): Promise<{ ok: true } | { ok: false; reason: string }> {
    try {
      await this.send(['PING']);
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: (error as Error).message.replace(/^store unavailable: /, '') };
    }
  }

  async close(): Promise<void> {
    if (!this.client.isOpen) return;
    if (!this.client.isReady) return this.client.destroy();
    // close() waits for the replies still due: bounded, as Redis may have stopped answering.
    await within(this.client.close(), COMMAND_TIMEOUT_MS, () => 'late').catch(() => this.client.isOpen && this.client.destroy());
  }

  /**
   * Which of these connection ids Redis still has connected (the process of a killed instance has
   * none: its socket was closed with it). Undefined when Redis will not say (CLIENT LIST refused by
   * an ACL, or Redis before 6.2): then every one may be.
   */
  async connected(ids: readonly string[]): Promise<Set<string> | undefined> {
    const known = ids.filter((id) => /^\d+$/.test(id));
    if (known.length === 0) return new Set();
    try {
      const list = String(await this.send(['CLIENT', 'LIST', 'ID', ...new Set(known)]));
      return new Set([...list.matchAll(/(?:^|\s)id=(\d+)/g)].map((match) => match[1] as string));
    } catch (error) {
      if ((error as Error).message.includes(' answered: ')) return undefined;
      throw error;
    }
  }

  /** Outside the stats: not a command of the store's calls. A failure leaves it unknown (claims then name no connection). */
  private async learnClientId(): Promise<void> {
    try {
      this.clientId = String(await within(this.client.sendCommand(['CLIENT', 'ID']), COMMAND_TIMEOUT_MS, () => 'late'));
    } catch {
      this.clientId = '';
    }
  }

  private unavailable(error: unknown): Error {
    return unavailableError(this.redis, `Redis at ${this.location}`, this.watch.lastProblem, error);
  }
}

// For the process (src/process), which builds its other clients as this one.
export { clientOptions, redactUrl };
