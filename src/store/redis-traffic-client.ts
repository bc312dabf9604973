// How the Redis traffic state talks to Redis, over the node-redis client it is given (the caller
// owns it, its reconnection and its close). Two kinds of call:
//   call / script   reads and changes someone waits for: they settle within TRAFFIC_TIMEOUT_MS
//                   (a request answers the documented 500 within D25's 2 s), and any failure is
//                   an Error whose message starts `store unavailable: `. A deadline of our own:
//                   node-redis's command timeout ends only a command not yet written, and a
//                   Redis that stopped answering has been written to;
//   record          journal entries and coverage counts: sent in the background, never awaited by
//                   a request, never failing one. While Redis is away, or has MAX_PENDING_RECORDS
//                   of them unanswered, they are dropped at once (nothing grows in memory), with
//                   one log line per outage.
import { createHash } from 'node:crypto';

export const TRAFFIC_TIMEOUT_MS = 1_000;
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

export class TrafficRedis {
  /** Records sent and not answered by Redis yet (past their deadline too: node-redis still holds them). */
  private unanswered = 0;
  /** Each record until it is stored or dropped (it never rejects): what flush() waits for. */
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

  /** Sends it now, or drops it; the promise (which callers need not wait for) settles when it is done either way. */
  record(script: LuaScript, keys: string[], args: string[]): Promise<void> {
    if (!this.client.isReady) return Promise.resolve(this.drop('Redis is not connected'));
    if (this.unanswered >= MAX_PENDING_RECORDS) return Promise.resolve(this.drop(`Redis has not answered the last ${MAX_PENDING_RECORDS}`));
    this.unanswered += 1;
    const sent = this.run(script, keys, args);
    const answered = (): void => {
      this.unanswered -= 1;
    };
    void sent.then(answered, answered);
    const done = withDeadline(sent)
      .then(
        () => this.recovered(),
        (error: Error) => this.drop(error.message.replace(/^store unavailable: /, '')),
      )
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
    return done;
  }

  private async send(args: string[]): Promise<unknown> {
    try {
      // The timeout takes back a command still queued while the client reconnects.
      return await this.client.sendCommand(args, { timeout: TRAFFIC_TIMEOUT_MS });
    } catch (error) {
      throw unavailable(error);
    }
  }

  private async run(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.client.sendCommand(['EVALSHA', script.sha, ...tail], { timeout: TRAFFIC_TIMEOUT_MS });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw unavailable(error);
    }
    return this.send(['EVAL', script.source, ...tail]);
  }

  /** Once every record sent so far is stored or dropped. */
  async flush(): Promise<void> {
    await Promise.all(this.pending);
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
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`store unavailable: Redis did not answer within ${TRAFFIC_TIMEOUT_MS} ms`)), TRAFFIC_TIMEOUT_MS);
  });
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
}

/** The one form of every failure a caller waits on. (By name: node-redis is not imported, so a memory mock never loads it.) */
function unavailable(error: unknown): Error {
  const message = error instanceof Error ? error.message || error.name : String(error);
  const why = error instanceof Error && error.constructor.name === 'TimeoutError' ? `Redis did not answer within ${TRAFFIC_TIMEOUT_MS} ms` : `Redis: ${message}`;
  return new Error(`store unavailable: ${why}`);
}
