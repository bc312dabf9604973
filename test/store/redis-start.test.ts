// D25 at start, for what is at the address but does not answer as Redis: a listener that accepts
// the connection and never replies, a redis-server stopped (SIGSTOP), an HTTP server. The start
// waited for ever on the first two (node-redis's handshake has no deadline once the socket is open)
// and named the wrong cause, after an outage line on stdout, for the third. Each is now one line
// naming the URL (its password masked) and why, within the start's bound (src/store/redis/redis-start.ts),
// with the client closed behind it.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { START_TIMEOUT_MS } from '../../src/store/redis/redis-start.js';
import { runCli } from '../helpers/cli-process.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { freshPrefix, RedisStores } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

/** The bound the in-process tests give the start: small, so that they are fast. */
const TEST_START_MS = 300;
/** What a closed connection has to show within: an event, waited for with a bound. */
const CLOSE_LIMIT_MS = 2_000;

let dir: string;
const stores = new RedisStores();
/** How each server a test started is stopped, its connections with it. */
const stops: Array<() => Promise<void>> = [];
beforeAll(() => {
  sharedRedisUrl(); // fails with the set-up's words when there is no redis-server
  dir = mkdtempSync(join(tmpdir(), 'slm-redis-start-'));
});
afterEach(async () => {
  await stores.closeAll();
  await Promise.all(stops.splice(0).map((stop) => stop()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Silent {
  port: number;
  accepted: Socket[];
}

/** A listener on 127.0.0.1, at a port from the OS, that accepts every connection and never writes a byte. */
async function silentListener(): Promise<Silent> {
  const accepted: Socket[] = [];
  const server = createServer((socket) => {
    accepted.push(socket);
    // Read (and drop) what comes: a paused socket would never see the client's end, nor close.
    socket.resume();
    // A client closing its end resets it at times: that is the end looked for, not a failure.
    socket.on('error', () => undefined);
  });
  stops.push(() => {
    for (const socket of accepted) socket.destroy();
    return closeServer(server);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, accepted };
}

/** An HTTP server on 127.0.0.1 at a port from the OS: it answers a Redis command with an HTTP 400 and closes. */
async function httpServer(): Promise<number> {
  const server = createHttpServer((_, res) => res.end('hi'));
  stops.push(() => {
    server.closeAllConnections();
    return closeServer(server);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const closeServer = (server: Server | HttpServer): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** Resolves once `socket` is closed; rejects after CLOSE_LIMIT_MS. */
function closed(socket: Socket): Promise<void> {
  if (socket.closed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the connection was still open after ${CLOSE_LIMIT_MS} ms`)), CLOSE_LIMIT_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The store's start on `url`: its failure's message and how long it took (it must fail). */
async function failedStart(url: string, log: (line: string) => void = () => undefined): Promise<{ message: string; ms: number }> {
  const started = Date.now();
  const error = await stores.open(url, freshPrefix(), { startTimeoutMs: TEST_START_MS, log }).then(
    () => new Error('the start succeeded'),
    (failure: unknown) => failure as Error,
  );
  expect(error.name).toBe('RedisStartError');
  return { message: error.message, ms: Date.now() - started };
}

describe('the store at start (in process, with a bound of 300 ms)', () => {
  it('a listener that never answers: fails within the bound naming the URL, its password masked, and closes its connection', async () => {
    const silent = await silentListener();
    const logged: string[] = [];
    const { message, ms } = await failedStart(`redis://user:secret@127.0.0.1:${silent.port}/0`, (line) => logged.push(line));
    expect(message).toBe(`cannot connect to Redis at redis://user:***@127.0.0.1:${silent.port}/0: it did not answer within ${TEST_START_MS} ms`);
    // Not sooner than the bound; how much later depends on the machine's load, and the message says which bound fired.
    expect(ms).toBeGreaterThanOrEqual(TEST_START_MS);
    // One connection, closed by the client; it gave up rather than trying again.
    expect(silent.accepted).toHaveLength(1);
    await closed(silent.accepted[0]!);
    expect(silent.accepted).toHaveLength(1);
    expect(logged).toEqual([]);
  });

  it('a redis-server that stopped answering (SIGSTOP): fails within the bound naming the URL', async () => {
    let redis: RedisServer | undefined;
    try {
      redis = await startRedis();
      process.kill(redis.pid, 'SIGSTOP');
      const { message, ms } = await failedStart(redis.url);
      expect(message).toBe(`cannot connect to Redis at ${redis.url}: it did not answer within ${TEST_START_MS} ms`);
      expect(ms).toBeGreaterThanOrEqual(TEST_START_MS);
    } finally {
      if (redis) process.kill(redis.pid, 'SIGCONT');
      await redis?.stop();
    }
  });

  it('a server that is not Redis: fails at once naming the first cause, and logs no outage', async () => {
    const port = await httpServer();
    const logged: string[] = [];
    // "At once": the first cause ends the start, not the bound (whose message would say "did not answer within").
    const { message } = await failedStart(`redis://127.0.0.1:${port}`, (line) => logged.push(line));
    expect(message).toBe(`cannot connect to Redis at redis://127.0.0.1:${port}: it did not answer as Redis (Unknown RESP type 72 "H")`);
    expect(logged).toEqual([]);
  });
});

describe('the CLI at start (D25: exit 2, one line naming the URL)', () => {
  it(`a listener that never answers: exit 2 after the documented ${START_TIMEOUT_MS} ms, one line on stderr, nothing on stdout`, async () => {
    const silent = await silentListener();
    const started = Date.now();
    const result = await runCli(['--port', '0', '--host', '127.0.0.1', '--db', `redis://user:secret@127.0.0.1:${silent.port}/0`], dir);
    const ms = Date.now() - started;
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `shortlink-mock: --db: cannot connect to Redis at redis://user:***@127.0.0.1:${silent.port}/0: it did not answer within ${START_TIMEOUT_MS} ms\n`,
    });
    expect(ms).toBeGreaterThanOrEqual(START_TIMEOUT_MS);
  });

  it('an HTTP server on the port: exit 2 with one line naming the URL and that it did not answer as Redis; no outage line', async () => {
    const port = await httpServer();
    const result = await runCli(['--port', '0', '--host', '127.0.0.1', '--db', `redis://user:secret@127.0.0.1:${port}/3`], dir);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `shortlink-mock: --db: cannot connect to Redis at redis://user:***@127.0.0.1:${port}/3: it did not answer as Redis (Unknown RESP type 72 "H")\n`,
    });
  });
});
