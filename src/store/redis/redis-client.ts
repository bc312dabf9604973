// How every node-redis client of the mock is made, for D25 (the Redis store's connection and the
// process's clients of the shared traffic state): its address, no offline queue, a bounded connect,
// reconnects with a capped backoff; and how a Redis URL and a client's failures read, in one line
// (a store call's failure is a `store unavailable: ` Error).
import { redisClientAddress } from './redis-address.js';

const CONNECT_TIMEOUT_MS = 2_000;
const RECONNECT_CAP_MS = 1_000;

/**
 * node-redis options with D25's settings, for every connection to Redis: where it is
 * (redis-address.ts), no offline queue (a command while Redis is away fails at once instead of
 * waiting), a bounded connect, and, once `connected()` holds, reconnects for ever with a capped
 * backoff; before it, the first failure gives up with `failure(cause)` (the start fails).
 */
export function clientOptions(location: string, connected: () => boolean, failure: (cause: Error) => Error) {
  const address = redisClientAddress(location);
  return {
    ...address,
    disableOfflineQueue: true,
    socket: {
      ...address.socket,
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number, cause: Error) => (connected() ? Math.min(50 * 2 ** retries, RECONNECT_CAP_MS) : failure(cause)),
    },
  };
}

/** The URL as it may be shown: without a password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** One line for an error; a failed connect to a name with two addresses is an AggregateError without a message. */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeError).join('; ');
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

/** A node-redis failure of a call to `at` ("Redis at URL") as the store's `store unavailable: ` Error; one already so is kept. */
export function unavailableError(redis: typeof import('redis'), at: string, lastProblem: string | undefined, error: unknown): Error {
  const { ErrorReply, ClientOfflineError, ClientClosedError } = redis;
  if ((error as Error).message.startsWith('store unavailable: ')) return error as Error;
  if (error instanceof ErrorReply) return new Error(`store unavailable: ${at} answered: ${error.message}`);
  if (error instanceof ClientClosedError) return new Error(`store unavailable: the connection to ${at} is closed`);
  if (error instanceof ClientOfflineError) return new Error(`store unavailable: ${at} is not reachable${lastProblem ? ` (${lastProblem})` : ''}`);
  return new Error(`store unavailable: ${at}: ${describeError(error)}`);
}
