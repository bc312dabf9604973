// How the Redis traffic state talks to Redis, over the node-redis client it is given (the caller
// owns it, its reconnection and its close). Two kinds of call:
//   call / script   reads and changes someone waits for: they settle within TRAFFIC_TIMEOUT_MS
//                   (a request answers the documented 500 within D25's 2 s), and any failure is
//                   an Error whose message starts `store unavailable: `. A deadline of our own:
//                   node-redis's command timeout ends only a command not yet written, and a
//                   Redis that stopped answering has been written to;
//   record          journal entries and coverage counts: sent in the background, in batches
//                   (redis-record-batch.ts), never awaited by a request, never failing one. While
//                   Redis is away, or has MAX_PENDING_RECORDS of them unanswered, they are dropped
//                   at once (nothing grows in memory), with one log line per outage.
import { createHash } from 'node:crypto';
import { within } from './deadline.js';
import { batchCall, MAX_BATCH, type RecordBatchItem, type RecordKind } from './redis-record-batch.js';

export const TRAFFIC_TIMEOUT_MS = 1_000;
const OFFLINE = 'The client is offline';
/** Records sent and not yet answered, at most: past this (Redis stalled), new ones are dropped. */
export const MAX_PENDING_RECORDS = 1_000;

/** What the traffic state needs of a node-redis client (v5); a `createClient()` client is one. */
export interface TrafficRedisClient {
  readonly isReady: boolean;
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>;
  /** A new client with the same options, not connected yet (the journal feed's own connection); `name` is its CLIENT SETNAME. */
  duplicate(overrides: { name: string }): TrafficRedisClient;
  connect(): Promise<unknown>;
  destroy(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
}

export interface LuaScript {
  source: string;
  sha: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** Records sent together, and what their callers wait for. */
interface Batch {
  items: RecordBatchItem[];
  done: Promise<void>;
  settle: () => void;
}

export class TrafficRedis {
  /** Records made and not answered by Redis yet (queued, or past their deadline: node-redis still holds them). */
  private unanswered = 0;
  /** Batches not sent yet, oldest first; one more may be in flight. */
  private readonly queued: Batch[] = [];
  private sending = false;
  /** Each batch until it is stored or dropped (it never rejects): what flush() waits for. */
  private readonly pending = new Set<Promise<void>>();
  /** Why records are being dropped, while they are; logged once when it starts. */
  private dropping: string | undefined;

  constructor(
    readonly client: TrafficRedisClient,
    readonly prefix: string,
    private readonly log: (line: string) => void,
  ) {}

  /** The key of one part of the traffic state, under the mock's prefix. */
  key(name: string): string {
    return `${this.prefix}traffic:${name}`;
  }

  call(args: string[]): Promise<unknown> {
    return withDeadline(this.send(args));
  }

  /** Runs the script by its SHA; a Redis that does not know it yet (new or restarted) gets its text. */
  script(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    return withDeadline(this.run(script, keys, args));
  }

  /**
   * Sends it with the next batch (at once when none is in flight), or drops it; the promise (which
   * callers need not wait for) settles when it is done either way.
   */
  record(kind: RecordKind, keys: readonly string[], args: readonly string[]): Promise<void> {
    if (!this.client.isReady) return Promise.resolve(this.drop('Redis is not connected'));
    if (this.unanswered >= MAX_PENDING_RECORDS) return Promise.resolve(this.drop(`Redis has not answered the last ${MAX_PENDING_RECORDS}`));
    this.unanswered += 1;
    let batch = this.queued.at(-1);
    if (!batch || batch.items.length >= MAX_BATCH) {
      let settle = (): void => undefined;
      const done = new Promise<void>((resolve) => (settle = resolve));
      this.queued.push((batch = { items: [], done, settle }));
      this.pending.add(done);
    }
    batch.items.push({ kind, keys, args });
    if (!this.sending) this.sendNext();
    return batch.done;
  }

  private sendNext(): void {
    const batch = this.queued.shift();
    if (!batch) return;
    this.sending = true;
    const call = batchCall(batch.items);
    const sent = this.run(call, call.keys, call.args);
    const answered = (): void => {
      this.unanswered -= batch.items.length;
    };
    void sent.then(answered, answered);
    void withDeadline(sent)
      .then(
        () => this.recovered(),
        (error: Error) => {
          this.drop(error.message.replace(/^store unavailable: /, ''));
          // Redis is gone or not answering: what waits behind this batch is dropped now, not one deadline at a time.
          for (const waiting of this.queued.splice(0)) this.settle(waiting, true);
        },
      )
      .finally(() => {
        this.settle(batch, false);
        this.sending = false;
        this.sendNext();
      });
  }

  /** The batch's callers are done waiting; `unsent`: it was dropped before it was sent. */
  private settle(batch: Batch, unsent: boolean): void {
    if (unsent) this.unanswered -= batch.items.length;
    this.pending.delete(batch.done);
    batch.settle();
  }

  private async send(args: string[]): Promise<unknown> {
    // Refused at once while not connected (node-redis's words): never queued by a client with an
    // offline queue, to be sent late, after its caller was told it failed. So no node-redis
    // timeout is needed (it costs an AbortSignal per command); withDeadline bounds the wait.
    if (!this.client.isReady) throw unavailable(new Error(OFFLINE));
    try {
      return await this.client.sendCommand(args);
    } catch (error) {
      throw unavailable(error);
    }
  }

  private async run(script: LuaScript, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    if (!this.client.isReady) throw unavailable(new Error(OFFLINE));
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.client.sendCommand(['EVALSHA', script.sha, ...tail]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw unavailable(error);
    }
    return this.send(['EVAL', script.source, ...tail]);
  }

  /** Once every record made so far is stored or dropped. */
  async flush(): Promise<void> {
    await Promise.all(this.pending);
  }

  /**
   * A read or a clearing of what was recorded: sent once this instance's records made before it
   * are stored, so it acts on them (waiting TRAFFIC_TIMEOUT_MS at most, as they may be dropped).
   */
  callAfterRecords(args: string[]): Promise<unknown> {
    return withDeadline(this.flush().then(() => this.send(args)));
  }

  /** A script, sent like callAfterRecords. */
  scriptAfterRecords(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    return withDeadline(this.flush().then(() => this.run(script, keys, args)));
  }

  private recovered(): void {
    if (this.dropping === undefined) return;
    this.dropping = undefined;
    this.log('Redis takes journal entries and coverage counts again');
  }

  private drop(why: string): void {
    if (this.dropping !== undefined) return;
    this.dropping = why;
    this.log(`journal entries and coverage counts are dropped while Redis cannot take them (${why}); requests are answered as usual`);
  }
}

/** The call's outcome, or a `store unavailable: ` rejection once TRAFFIC_TIMEOUT_MS have passed. */
function withDeadline<T>(call: Promise<T>): Promise<T> {
  return within(call, TRAFFIC_TIMEOUT_MS, () => `store unavailable: Redis did not answer within ${TRAFFIC_TIMEOUT_MS} ms`);
}

/** The one form of every failure a caller waits on. (By name: node-redis is not imported, so a memory mock never loads it.) */
function unavailable(error: unknown): Error {
  const message = error instanceof Error ? error.message || error.name : String(error);
  const why = error instanceof Error && error.constructor.name === 'TimeoutError' ? `Redis did not answer within ${TRAFFIC_TIMEOUT_MS} ms` : `Redis: ${message}`;
  return new Error(`store unavailable: ${why}`);
}
