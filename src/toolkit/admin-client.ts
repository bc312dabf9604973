// The one HTTP client of the admin API (/__admin) that startMock(), connectMock() and the commands
// that read a running mock share, so a mock in this process and one running elsewhere are driven by
// exactly the same requests. Each call is bounded in time, each answer in size and checked for its
// route's shape (admin-answers.ts); a redirect is never followed, as the admin token would go with
// it. A refusal becomes an AdminApiError: the mock's own Error object, or one line naming the URL.
import { ADMIN_OBJECT_BYTES, answerRule, type Query } from './admin-answers.js';
import { integer } from '../process/option-values.js';

export { MAX_ADMIN_ANSWER_BYTES, type Query } from './admin-answers.js';

/** Default bound of one admin call: generous for a loaded CI machine, short enough to fail a test clearly. */
export const DEFAULT_ADMIN_TIMEOUT_MS = 10_000;
/** The longest bound of one admin call: the contract command's --timeout-ms stops there too. */
export const MAX_ADMIN_TIMEOUT_MS = 600_000;

/**
 * `timeoutMs` of startMock() and connectMock(), checked before any call: left unchecked, -1 or
 * 'abc' would reach AbortSignal.timeout() at each later call and fail every one with Node's own
 * "delay is out of range". Text is read as the CLI reads a number ('5000').
 */
export function adminTimeoutMs(source: string, value: number | string | undefined): number {
  return integer(source, value, DEFAULT_ADMIN_TIMEOUT_MS, 1, MAX_ADMIN_TIMEOUT_MS);
}

/** An admin call the mock refused (4xx/5xx) or that never got an answer (status 0). */
export class AdminApiError extends Error {
  override name = 'AdminApiError';
  constructor(
    /** `PUT /__admin/scenario`: the call that failed. */
    readonly call: string,
    /** The HTTP status; 0 when there was no answer (refused connection, timeout). */
    readonly status: number,
    /** The mock's Error object's `errorDescription`, or why there was no answer. */
    readonly errorDescription: string,
    /** The Error object's `code`, when it has one. */
    readonly code?: string,
  ) {
    // With no answer (status 0) the description says so itself, with the URL and the bound.
    super(`${call}: ${status === 0 ? '' : `${status} `}${errorDescription}`);
  }
}

export interface AdminClientOptions {
  /** Sent as `x-admin-token` (a mock started with `--admin-token`). */
  adminToken?: string | undefined;
  /** Bound of each call in milliseconds (default 10,000). */
  timeoutMs?: number | undefined;
  /** A lower bound of one answer's body in bytes than its route's own (admin-answers.ts); tests pass a small one. */
  maxAnswerBytes?: number | undefined;
}

export class AdminClient {
  readonly baseUrl: string;

  constructor(url: string, private readonly options: AdminClientOptions = {}) {
    // A trailing slash would make every path `//__admin/...`, which the mock answers 404.
    this.baseUrl = url.replace(/\/+$/, '');
  }

  /** Sends one admin call and returns its JSON body (undefined for a 204), checked for its route's shape. */
  async call<T>(method: string, path: string, body?: unknown, query: Query = {}): Promise<T> {
    const name = `${method} /__admin${path}`;
    const url = `${this.baseUrl}/__admin${path}${queryString(query)}`;
    const response = await this.send(name, method, url, body);
    await refuseRedirect(response, name, url);
    if (response.status === 204) return undefined as T;
    const rule = answerRule(method, path, query);
    const maxBytes = Math.min(response.ok ? rule.maxBytes : ADMIN_OBJECT_BYTES, this.options.maxAnswerBytes ?? Number.POSITIVE_INFINITY);
    const text = await this.read(response, name, url, maxBytes);
    if (!response.ok) throw refusal(name, response.status, text);
    const parsed = parseJson(text);
    if (!rule.fits(parsed)) throw new AdminApiError(name, response.status, `${url} did not answer with ${rule.what} (is ${this.baseUrl} a shortlink-mock?)`);
    return parsed as T;
  }

  /**
   * The text of a document the mock serves outside /__admin (its contract, `/openapi.yaml`), read
   * as an admin answer is: bounded in time and to `maxBytes`, no redirect followed; a refusal is
   * an AdminApiError with the start of its body.
   */
  async document(path: string, maxBytes: number): Promise<string> {
    const name = `GET ${path}`;
    const url = `${this.baseUrl}${path}`;
    const response = await this.send(name, 'GET', url, undefined);
    await refuseRedirect(response, name, url);
    const text = await this.read(response, name, url, Math.min(response.ok ? maxBytes : ADMIN_OBJECT_BYTES, this.options.maxAnswerBytes ?? Number.POSITIVE_INFINITY));
    if (!response.ok) throw refusal(name, response.status, text);
    return text;
  }

  /** The body, within `maxBytes` and the call's timeout, which also bounds an answer that trickles. */
  private async read(response: Response, name: string, url: string, maxBytes: number): Promise<string> {
    return readBounded(response, name, url, maxBytes).catch((error: unknown) => {
      if ((error as Error).name !== 'TimeoutError') throw error;
      throw new AdminApiError(name, 0, `the answer from ${url} did not end within ${this.timeoutMs()} ms`);
    });
  }

  private async send(name: string, method: string, url: string, body: unknown): Promise<Response> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.adminToken !== undefined) headers['x-admin-token'] = this.options.adminToken;
    const timeoutMs = this.timeoutMs();
    try {
      // redirect 'manual': the 3xx itself is the answer (call() refuses it), as in src/contract/client.ts.
      return await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const why = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms from ${url}` : `no answer from ${url}: ${describeFetchError(error)}`;
      throw new AdminApiError(name, 0, why);
    }
  }

  private timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_ADMIN_TIMEOUT_MS;
  }
}

/** A 4xx/5xx as an error: the mock's Error object, or (not one) its body's start on one line. */
function refusal(name: string, status: number, text: string): AdminApiError {
  const error = parseJson(text) as { errorDescription?: unknown; code?: unknown } | undefined;
  const description = typeof error?.errorDescription === 'string' ? error.errorDescription : text.slice(0, 200).replace(/\s+/g, ' ');
  return new AdminApiError(name, status, description, typeof error?.code === 'string' ? error.code : undefined);
}

/** A 3xx is refused, never followed: the admin token would go with it. */
async function refuseRedirect(response: Response, name: string, url: string): Promise<void> {
  if (response.status < 300 || response.status >= 400) return;
  await response.body?.cancel();
  const location = response.headers.get('location') ?? '(no Location)';
  throw new AdminApiError(name, response.status, `${url} answered ${response.status}, a redirect to ${location}: the admin client follows no redirect (the admin token stays with the mock); give the mock's own address`);
}

/** The body as text, read chunk by chunk and given up (the stream cancelled) past `maxBytes`. */
async function readBounded(response: Response, name: string, url: string, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    // Leaving the loop cancels the stream: the rest is never read.
    if (bytes > maxBytes) break;
    chunks.push(chunk);
  }
  if (bytes > maxBytes) throw new AdminApiError(name, response.status, `${url} answered more than ${maxBytes} bytes, the most this route can hold (is this a shortlink-mock?)`);
  return Buffer.concat(chunks).toString('utf8');
}

function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** fetch says only "fetch failed"; the reason (`connect ECONNREFUSED 127.0.0.1:4010`, ENOTFOUND) is in its cause. */
function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message || cause?.code || (error as Error).message;
}
