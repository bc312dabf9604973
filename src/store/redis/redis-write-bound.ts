// How far a write of the Redis store (redis-link-writes.ts, redis-account-writes.ts) may go before
// it gives up: the 2 s of a call on the connection (D25), and a number of retries of a
// compare-and-set whose record changed under it.
import type { RedisConnection } from './redis-connection.js';

/** A compare-and-set retried on a changed record this often (each retry is one round trip). */
export const CAS_ATTEMPTS = 16;

/** A write that timed out may still be made once Redis answers: its message says so. */
export function boundedWrite<T>(connection: RedisConnection, call: () => Promise<T>): Promise<T> {
  return connection.bounded(call).catch((error: unknown) => {
    if (!/^store unavailable: .* did not answer within \d+ ms$/.test((error as Error).message)) throw error;
    throw new Error(`${(error as Error).message}; the change may have been made`);
  });
}
