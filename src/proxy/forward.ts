// One request sent on to the upstream and its whole answer read back, or the reason there is none.
// node:http rather than fetch: fetch would undo a gzip answer and drop hop-by-hop details, and the
// client must get the upstream's bytes unchanged. The answer is read whole (bounded) because it is
// validated before it is passed on.
import { request as httpRequest, Agent as HttpAgent, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { ExchangeSlots } from './exchange-slots.js';

export interface ForwardRequest {
  method: string;
  /** Path and query as the client sent them, e.g. `/links/abc?x=1`. */
  target: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | undefined;
}

export type Forwarded =
  | { kind: 'answer'; status: number; headers: IncomingHttpHeaders; body: Buffer; durationMs: number }
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

  constructor(
    url: URL,
    readonly timeoutMs: number,
    concurrency?: number,
  ) {
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
  async send(outgoing: ForwardRequest, cancelled: AbortSignal, started = performance.now()): Promise<Forwarded> {
    const first = await this.attempt(outgoing, cancelled, started);
    if (first.kind === 'failed' && first.staleConnection && !cancelled.aborted) return this.attempt(outgoing, cancelled, started);
    return first;
  }

  private attempt(outgoing: ForwardRequest, cancelled: AbortSignal, started: number): Promise<Forwarded & { staleConnection?: boolean }> {
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
        fail(`no complete answer within ${this.timeoutMs} ms (--proxy-timeout)`);
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
        readAnswer(res, elapsed, done, () => req.destroy());
      });
      req.end(outgoing.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Milliseconds since `started` (a performance.now()), to the hundredth. */
export const elapsedMs = (started: number): number => Math.round((performance.now() - started) * 100) / 100;

/**
 * The whole answer, or a 'failed' when it is too large or cut off. With a Content-Length the bytes
 * go straight into one buffer of that size: no chunk list and no second copy of up to 16 MiB.
 */
function readAnswer(res: IncomingMessage, elapsed: () => number, done: (result: Forwarded) => void, abort: () => void): void {
  const tooLarge = (): void => {
    done({ kind: 'failed', reason: `its answer is larger than ${MAX_UPSTREAM_BODY / 1024 / 1024} MiB, the proxy's limit`, durationMs: elapsed() });
    abort();
  };
  const declared = Number(res.headers['content-length'] ?? Number.NaN);
  if (declared > MAX_UPSTREAM_BODY) return tooLarge();
  const body = new AnswerBody(Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined);
  res.on('data', (chunk: Buffer) => (body.add(chunk) ? undefined : tooLarge()));
  res.on('end', () => done({ kind: 'answer', status: res.statusCode ?? 0, headers: res.headers, body: body.bytes(), durationMs: elapsed() }));
  res.on('error', (error: NodeJS.ErrnoException) => done({ kind: 'failed', reason: describeNetworkError(error), durationMs: elapsed() }));
}

/**
 * An answer's bytes as they arrive, up to MAX_UPSTREAM_BODY: into one buffer when the size is known.
 * A large one's buffer is shared memory (LARGE_ANSWER_BYTES).
 */
class AnswerBody {
  private readonly chunks: Buffer[] = [];
  private readonly whole: Buffer | undefined;
  private size = 0;

  constructor(declared: number | undefined) {
    this.whole = declared === undefined ? undefined : allocate(declared);
  }

  /** False when the answer has grown past the limit (or past its own Content-Length). */
  add(chunk: Buffer): boolean {
    if (this.size + chunk.length > (this.whole?.length ?? MAX_UPSTREAM_BODY)) return false;
    if (this.whole) chunk.copy(this.whole, this.size);
    else this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  bytes(): Buffer {
    if (this.whole) return this.whole.subarray(0, this.size);
    if (this.size <= LARGE_ANSWER_BYTES) return Buffer.concat(this.chunks, this.size);
    const whole = allocate(this.size);
    let at = 0;
    for (const chunk of this.chunks) at += chunk.copy(whole, at);
    return whole;
  }
}

const allocate = (size: number): Buffer => (size > LARGE_ANSWER_BYTES ? Buffer.from(new SharedArrayBuffer(size)) : Buffer.allocUnsafe(size));

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
