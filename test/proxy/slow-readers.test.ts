// Clients that never read their answer (issue 37 A5): with answers of 15 MiB, as many of them as
// --proxy-concurrency held every slot for as long as they stayed, and every other client got a 502.
// Each client has --proxy-timeout to take its answer; then its connection is reset and its slot
// freed. Here the upstream keeps a generous time (a loaded machine reads 15 MiB slowly) and the
// client's time is short, through the factory's option; nothing waits on a clock: the test waits
// for the stuck connections to close, within a bound.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http/server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Larger than what loopback's kernel buffers hold for a client that reads nothing (~4 MiB sent, ~0.1 MiB received). */
const LARGE = 15 * 1024 * 1024;
const CONCURRENCY = 2;
const CLIENT_TIMEOUT_MS = 500;

let upstream: Server;
let mock: TestApp;
let proxy: Server;
let port: number;
const lines: string[] = [];
const stuck: Socket[] = [];

beforeAll(async () => {
  const large = Buffer.alloc(LARGE, 'x');
  upstream = createServer((req, res) => {
    const body = req.url === '/large' ? large : Buffer.from('small');
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  mock = await createTestApp({ proxy: { url, strict: false, timeoutMs: 20_000, concurrency: CONCURRENCY, clientTimeoutMs: CLIENT_TIMEOUT_MS }, log: (line) => lines.push(line) });
  proxy = createHttpServer(mock.app);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  port = (proxy.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of stuck) socket.destroy();
  for (const server of [proxy, upstream]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  await mock?.close();
});

/** A client that sends its request, takes the first bytes of the answer, then reads nothing more. */
async function neverReads(): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  stuck.push(socket);
  socket.write('GET /large HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: demo-key\r\n\r\n');
  // One chunk, then no reader: Node stops reading the socket once its buffer is full.
  const first: Buffer = await new Promise((resolve) => socket.once('data', resolve));
  socket.pause();
  expect(first.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
  return socket;
}

/**
 * Reads what reaches the client once it reads again, until its connection ends: how many bytes it
 * got in all. After a graceful close the answer queued in the proxy's kernel would still come
 * (~4 MiB on loopback); after a reset only what sat in the client's own receive buffer.
 */
function bytesUntilEnd(socket: Socket): Promise<number> {
  return new Promise((resolve) => {
    // A reset may be reported as an error, or (Linux, once read) as a plain end.
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(socket.bytesRead));
    socket.on('data', () => undefined).resume();
  });
}

it(`${CONCURRENCY} clients (--proxy-concurrency ${CONCURRENCY}) that never read their answer have their connections reset once their time is up, and the next client is answered`, async () => {
  // The proxy's ends of the clients' connections: a client that does not read does not see its end either.
  const proxyEnds: Promise<void>[] = [];
  const watch = (socket: Socket): void => void proxyEnds.push(new Promise((resolve) => socket.once('close', () => resolve())));
  proxy.on('connection', watch);
  const clients = await Promise.all(Array.from({ length: CONCURRENCY }, () => neverReads()));
  proxy.off('connection', watch);
  expect(proxyEnds).toHaveLength(CONCURRENCY);
  // Before the fix they held their slots (and connections) for good.
  await within(20 * CLIENT_TIMEOUT_MS, Promise.all(proxyEnds), 'the clients that never read still hold their connections');
  for (const received of await Promise.all(clients.map(bytesUntilEnd))) expect(received).toBeLessThan(1024 * 1024);
  const res = await fetch(`http://127.0.0.1:${port}/small`, { headers: { 'x-api-key': 'demo-key' } });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('small');
  const late = lines.filter((line) => line.startsWith('CLIENT TOO SLOW GET /large: '));
  expect(late).toEqual(clients.map(() => `CLIENT TOO SLOW GET /large: its answer was not taken within ${CLIENT_TIMEOUT_MS} ms (--proxy-timeout); the connection is reset`));
}, 30_000);

/** The promise, or a failure saying `what` once `ms` have passed (a bound, not a wait). */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what} after ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
