// A small fetch client for the server under test that records every exchange as it went over the
// wire (the body as text, never re-serialised), so that a failure can show the exact request and
// the exact answer that broke the contract. Every request is bounded by a timeout.

export interface RequestSpec {
  method: string;
  /** Relative to the base URL, already encoded, e.g. '/links/lnk_1'. */
  path: string;
  /** Sent as x-api-key; undefined sends no key at all. */
  apiKey?: string | undefined;
  /** Sent as JSON with content-type application/json. */
  json?: unknown;
  /** Sent as is with content-type application/json (for malformed JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Exchange {
  method: string;
  path: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** 0 when no answer came (see networkError). */
  status: number;
  contentType: string | null;
  bodyText: string;
  networkError?: string;
  ms: number;
}

export const API_KEY_HEADER = 'x-api-key';
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface ClientOptions {
  timeoutMs?: number;
  /** Sees every exchange (the runner tracks created links through it). */
  onExchange?: (exchange: Exchange) => void;
}

export class ContractClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly listeners: ((exchange: Exchange) => void)[] = [];

  constructor(baseUrl: string, options: ClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (options.onExchange) this.listeners.push(options.onExchange);
  }

  onExchange(listener: (exchange: Exchange) => void): void {
    this.listeners.push(listener);
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    const requestHeaders: Record<string, string> = { ...spec.headers };
    if (spec.apiKey !== undefined) requestHeaders[API_KEY_HEADER] = spec.apiKey;
    const requestBody = spec.rawBody ?? (spec.json === undefined ? undefined : JSON.stringify(spec.json));
    if (requestBody !== undefined) requestHeaders['content-type'] ??= 'application/json';
    const url = this.baseUrl + spec.path;
    const started = performance.now();
    const exchange: Exchange = { method: spec.method, path: spec.path, url, requestHeaders, status: 0, contentType: null, bodyText: '', ms: 0 };
    if (requestBody !== undefined) exchange.requestBody = requestBody;
    try {
      const response = await fetch(url, {
        method: spec.method,
        headers: requestHeaders,
        ...(requestBody === undefined ? {} : { body: requestBody }),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      exchange.status = response.status;
      exchange.contentType = response.headers.get('content-type');
      exchange.bodyText = await response.text();
    } catch (error) {
      exchange.networkError = describeNetworkError(error, this.timeoutMs);
    }
    exchange.ms = Math.round(performance.now() - started);
    for (const listener of this.listeners) listener(exchange);
    return exchange;
  }
}

/** The body as JSON, or undefined when it is empty or not JSON. */
export function jsonBody(exchange: Exchange): unknown {
  if (exchange.bodyText.length === 0) return undefined;
  try {
    return JSON.parse(exchange.bodyText) as unknown;
  } catch {
    return undefined;
  }
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const { name, message, cause } = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const detail = cause?.code ?? cause?.message;
  return `no answer: ${message ?? String(error)}${detail ? ` (${detail})` : ''}`;
}
