// One request sent on to the upstream and its whole answer read back, or the reason there is none.
// node:http rather than fetch: fetch would undo a gzip answer and drop hop-by-hop details, and the
// client must get the upstream's bytes unchanged. The answer is read whole (bounded) because it is
// validated before it is passed on.
import { request as httpRequest, Agent as HttpAgent, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { AnswerBuffers } from './answer-buffers.js';
import { ExchangeSlots } from './exchange-slots.js';

export interface ForwardRequest {
  method: string;
  /** Path and query as the client sent them, e.g. `/links/abc?x=1`. */
  target: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | undefined;
}

export type Forwarded =
  | {
      kind: 'answer';
      status: number;
      headers: IncomingHttpHeaders;
      body: Buffer;
      durationMs: number;
      /** Gives a large body's memory back for reuse (answer-buffers.ts): call it once nothing reads or sends the body any more. */
      release: () => void;
    }
  | { kind: 'failed'; reason: string; durationMs: number };

/** An upstream answer larger than this is refused (a 502), not held in memory. */
export const MAX_UPSTREAM_BODY = 16 * 1024 * 1024;

/**
 * An answer larger than this is judged off the event loop (answer-judge.ts), so it is read into
 * shared memory, where the judging thread reads it without a copy. The size up to which a body's
 * validation collects all its errors (ALL_ERRORS_MAX_CHARS): a small answer costs less inline.
 */
export const LARGE_ANSWER_BYTES = 64 * 1024;

export class Upstream {
  readonly origin: string;
  private readonly basePath: string;
  private readonly secure: boolean;
  // Keep-alive: a proxy in front of a staging API should not pay a TCP (and TLS) handshake per request.
  private readonly agent: HttpAgent;
  /** Taken by each exchange for as long as it holds an answer or a socket (--proxy-concurrency). */
  readonly slots: ExchangeSlots;
  /** Where large answers are read. */
  readonly buffers = new AnswerBuffers();

  /** How long a client has to take its answer (client-deadline.ts): --proxy-timeout unless given. */
  readonly clientTimeoutMs: number;

  constructor(
    url: URL,
    readonly timeoutMs: number,
    concurrency?: number,
    clientTimeoutMs?: number,
  ) {
    this.clientTimeoutMs = clientTimeoutMs ?? timeoutMs;
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.secure = url.protocol === 'https:';
    this.slots = new ExchangeSlots(concurrency);
    // No more kept-alive sockets than exchanges can use at once.
    const agentOptions = { keepAlive: true, maxFreeSockets: this.slots.limit };
    this.agent = this.secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  }

  /**
   * Where a request target goes: the upstream URL's path, then the target's. Only an origin-form
   * target (`/…`) is ever joined: `@evil.test/` after the origin would name another host.
   */
  urlOf(target: string): string {
    if (!target.startsWith('/')) throw new Error(`not an origin-form request target: ${target}`);
    return `${this.origin}${this.basePath}${target}`;
  }

  /**
   * Never rejects: a refused connection, a reset, a timeout or an oversized answer is a 'failed'.
   * A kept-alive connection the upstream closed just as it was reused (a reset before any answer)
   * is tried once more on a new one: the upstream never saw that request (Node's advice for
   * `req.reusedSocket`). The timeout bounds both tries together, and the wait for a slot before
   * them when `started` is when that wait began.
   */
  async send(outgoing: ForwardRequest, cancelled: AbortSignal, started = performance.now(), waitedMs = 0): Promise<Forwarded> {
    const first = await this.attempt(outgoing, cancelled, started, waitedMs);
    if (first.kind === 'failed' && first.staleConnection && !cancelled.aborted) return this.attempt(outgoing, cancelled, started, waitedMs);
    return first;
  }

  private attempt(outgoing: ForwardRequest, cancelled: AbortSignal, started: number, waitedMs: number): Promise<Forwarded & { staleConnection?: boolean }> {
    const elapsed = (): number => elapsedMs(started);
    return new Promise((resolve) => {
      const fail = (reason: string): void => resolve({ kind: 'failed', reason, durationMs: elapsed() });
      const send = this.secure ? httpsRequest : httpRequest;
      let req: ReturnType<typeof send>;
      try {
        req = send(this.urlOf(outgoing.target), { method: outgoing.method, headers: outgoing.headers, agent: this.agent });
      } catch (error) {
        // A target or header Node will not send (control characters, a bad method): nothing went out.
        return fail(`the request cannot be sent on: ${(error as Error).message}`);
      }
      const timer = setTimeout(() => {
        fail(timedOut(this.timeoutMs, waitedMs));
        req.destroy();
      }, Math.max(0, this.timeoutMs - elapsed()));
      const stop = (): void => void req.destroy();
      cancelled.addEventListener('abort', stop, { once: true });
      const done = (result: Forwarded & { staleConnection?: boolean }): void => {
        clearTimeout(timer);
        cancelled.removeEventListener('abort', stop);
        resolve(result);
      };
      let answered = false;
      req.on('error', (error: NodeJS.ErrnoException) => {
        const staleConnection = req.reusedSocket && !answered && error.code === 'ECONNRESET';
        done({ kind: 'failed', reason: describeNetworkError(error), durationMs: elapsed(), staleConnection });
      });
      req.on('response', (res) => {
        answered = true;
        readAnswer(res, new AnswerBody(declaredLength(res), this.buffers), elapsed, done, () => req.destroy());
      });
      req.end(outgoing.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Milliseconds since `started` (a performance.now()), to the hundredth. */
/**
 * A timeout's reason. A request that waited for a slot has only what is left of --proxy-timeout for
 * the upstream: when the wait took most of it, the upstream is not to blame alone (a black-box
 * sweep saw 14 of 18 requests at --proxy-concurrency 1 blamed on the upstream), so the wait is named.
 */
function timedOut(timeoutMs: number, waitedMs: number): string {
  const waited = Math.round(waitedMs);
  const within = `no complete answer within ${timeoutMs} ms (--proxy-timeout)`;
  return waited < 1 ? within : `${within}, ${waited} ms of them waiting for a free exchange with the upstream (--proxy-concurrency)`;
}

export const elapsedMs = (started: number): number => Math.round((performance.now() - started) * 100) / 100;

/**
 * The whole answer, or a 'failed' when it is too large or cut off. Each chunk is copied into one
 * buffer as it comes (AnswerBody): no chunk list, no second copy of up to 16 MiB.
 */
function readAnswer(res: IncomingMessage, body: AnswerBody, elapsed: () => number, done: (result: Forwarded) => void, abort: () => void): void {
  const failed = (reason: string): void => {
    body.release();
    done({ kind: 'failed', reason, durationMs: elapsed() });
  };
  const tooLarge = (): void => {
    failed(`its answer is larger than ${MAX_UPSTREAM_BODY / 1024 / 1024} MiB, the proxy's limit`);
    abort();
  };
  if ((declaredLength(res) ?? 0) > MAX_UPSTREAM_BODY) return tooLarge();
  res.on('data', (chunk: Buffer) => (body.add(chunk) ? undefined : tooLarge()));
  res.on('end', () => done({ kind: 'answer', status: res.statusCode ?? 0, headers: res.headers, body: body.bytes(), durationMs: elapsed(), release: () => body.release() }));
  res.on('error', (error: NodeJS.ErrnoException) => failed(describeNetworkError(error)));
}

function declaredLength(res: IncomingMessage): number | undefined {
  const declared = Number(res.headers['content-length'] ?? Number.NaN);
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
}

/**
 * An answer's bytes as they arrive, up to MAX_UPSTREAM_BODY (or its Content-Length), each chunk
 * copied into one buffer as it comes: a chunk kept until the end outlived the young generation,
 * and the event loop's heap was collected in full every other 16 MiB answer. A large answer's
 * buffer is one of AnswerBuffers' (shared, reused).
 */
class AnswerBody {
  private whole: Buffer;
  private size = 0;
  private released = false;

  constructor(
    private readonly declared: number | undefined,
    private readonly buffers: AnswerBuffers,
  ) {
    this.whole = this.allocate(declared === undefined ? LARGE_ANSWER_BYTES : Math.min(declared, MAX_UPSTREAM_BODY));
  }

  /** False when the answer has grown past the limit (or past its own Content-Length), or was released. */
  add(chunk: Buffer): boolean {
    const size = this.size + chunk.length;
    if (this.released || size > (this.declared ?? MAX_UPSTREAM_BODY)) return false;
    // Past LARGE_ANSWER_BYTES without a Content-Length: room for the largest answer at once (one
    // copy, not one per doubling; reused buffers, so their memory is already mapped).
    if (size > this.whole.length) this.grow(MAX_UPSTREAM_BODY);
    chunk.copy(this.whole, this.size);
    this.size = size;
    return true;
  }

  bytes(): Buffer {
    return this.whole.subarray(0, this.size);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.buffers.give(this.whole);
  }

  private grow(capacity: number): void {
    const grown = this.allocate(capacity);
    this.whole.copy(grown, 0, 0, this.size);
    this.buffers.give(this.whole);
    this.whole = grown;
  }

  private allocate(size: number): Buffer {
    return size > LARGE_ANSWER_BYTES ? this.buffers.take(size) : Buffer.allocUnsafe(size);
  }
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED): is it running?';
    case 'ECONNRESET':
      return 'the connection was reset (ECONNRESET)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `its host name does not resolve (${error.code})`;
    default:
      return error.code ? `${error.message} (${error.code})` : error.message;
  }
}
