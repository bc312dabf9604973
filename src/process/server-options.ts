// --headers-timeout and --request-timeout: how long a connection may take to send its request.
// Node's own defaults (60 s and 300 s) let a client that opens connections and sends nothing,
// or a byte now and then, hold file descriptors for minutes each; at the descriptor limit the mock
// accepts nobody and its own file writes fail (EMFILE). A bare number is seconds.
import type { Config, GivenOptions } from './config-types.js';
import { ConfigError, duration } from './option-values.js';

/** Ample for any client on a network (a request head is a few hundred bytes). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** A 1 MiB body (the API's limit) at 35 KiB/s, a slow mobile link. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export function serverTimeouts({ scalar, source }: GivenOptions): Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs'> {
  const headersTimeoutMs = duration(source('headers-timeout'), scalar('headers-timeout'), DEFAULT_HEADERS_TIMEOUT_MS, 's');
  const given = scalar('request-timeout');
  // Node refuses a head timeout longer than the whole request's; given only the head's, the other follows.
  const requestTimeoutMs = duration(source('request-timeout'), given, Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeoutMs), 's');
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(`${source('request-timeout')} (${requestTimeoutMs} ms) must be at least ${source('headers-timeout')} (${headersTimeoutMs} ms): the headers are part of the request`);
  }
  return { headersTimeoutMs, requestTimeoutMs };
}
