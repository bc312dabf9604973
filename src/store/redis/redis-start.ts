// A node-redis client's first connect, bounded and ended by its first failure (D25: at start, an
// unreachable Redis is exit 2 with one line). node-redis bounds only the TCP connect (its
// `connectTimeout` timer is removed once the socket is open); the handshake it sends next (CLIENT
// SETINFO, and AUTH and SELECT when the URL has them) waits for its replies with no deadline, so a
// Redis that accepted the connection and never answered (stopped, or a listener that is not Redis)
// held the start for ever. And a reply it cannot read (an HTTP server on the port) is only an
// 'error' event: the connect waited on until the peer closed, and then named that close instead.
import type { RedisClientType } from 'redis';
import { DeadlineError, within } from './deadline.js';
import { describeError } from './redis-client.js';

/** The whole first connect (TCP connect and handshake) is given this long. */
export const START_TIMEOUT_MS = 5_000;

/** The one error node-redis's RESP decoder throws (@redis/client lib/RESP/decoder.js): the peer does not speak Redis. */
const NOT_RESP = /^Unknown RESP type /;

/**
 * Connects `client` (which reconnects on no failure before its first ready: clientOptions), or
 * rejects within `timeoutMs` with an Error saying why in one line, the client then destroyed: no
 * socket, no reconnect left behind. `timeoutMs` outlasts the TCP connect's own bound (2 s,
 * redis-client.ts), or is given to an address that takes the connect at once (loopback, in tests):
 * node-redis cannot destroy a socket it is still making, which would then connect and stay.
 */
export async function connectAtStart(client: RedisClientType, timeoutMs = START_TIMEOUT_MS): Promise<void> {
  let failed!: (error: unknown) => void;
  const firstError = new Promise<never>((_, reject) => (failed = reject));
  client.on('error', failed);
  // After a destroy below the connect may still reject (node-redis then fails on its gone socket).
  const connecting = client.connect();
  connecting.catch(() => undefined);
  try {
    await within(Promise.race([connecting, firstError]), timeoutMs, () => `it did not answer within ${timeoutMs} ms`);
  } catch (error) {
    // The listener stays: a destroyed client's late 'error' must not be an uncaught one.
    if (client.isOpen) client.destroy();
    throw new Error(startProblem(error));
  }
  client.off('error', failed);
}

function startProblem(error: unknown): string {
  if (error instanceof DeadlineError) return error.message;
  const cause = describeError(error);
  return NOT_RESP.test(cause) ? `it did not answer as Redis (${cause})` : cause;
}
