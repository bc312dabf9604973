// `--db unix:///path/redis.sock` as a user runs it: a mock reaching Redis over its Unix socket is
// the same mock as one reaching the same Redis over TCP (one prefix, one set of rules), `?db=N`
// picks the database, `--workers` takes it, and a socket nobody listens on is the one-line exit 2
// of an unreachable Redis (D25), with any password masked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer | undefined;
let dir: string;
const running: CliProcess[] = [];
beforeAll(async () => {
  redis = await startRedis({ unixSocket: true });
  dir = mkdtempSync(join(tmpdir(), 'slm-redis-socket-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop('SIGKILL')));
});
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function mock(db: string, prefix: string, ...extra: string[]): Promise<CliProcess> {
  const cli = await startCli(['--db', db, '--redis-prefix', prefix, ...extra], dir);
  running.push(cli);
  return cli;
}

const createLink = (url: string, slug: string): Promise<Response> =>
  fetch(`${url}/links`, {
    method: 'POST',
    headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
    body: JSON.stringify({ destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [], slug }),
  });

describe('--db unix://', () => {
  it('over the socket and over TCP, two instances on one prefix are one mock', async () => {
    const socketUrl = redis!.socketUrl!;
    const [overSocket, overTcp] = await Promise.all([mock(socketUrl, 'sock-one:'), mock(redis!.url, 'sock-one:')]);
    expect(overSocket.output()).toContain(`db         ${socketUrl}, prefix 'sock-one:', shared by every instance on it`);
    const created = await createLink(overSocket.url, 'through-the-socket');
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // The slug is taken for both; the link is one: deleted through TCP, it is gone through the socket.
    expect((await createLink(overTcp.url, 'through-the-socket')).status).toBe(400);
    expect((await fetch(`${overTcp.url}/links/${id}`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key' } })).status).toBe(204);
    expect((await fetch(`${overSocket.url}/links/${id}`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key' } })).status).toBe(404);
  });

  it('?db=N is another database: the same prefix there is another mock', async () => {
    const inZero = await mock(redis!.socketUrl!, 'sock-db:');
    const inThree = await mock(`${redis!.socketUrl!}?db=3`, 'sock-db:');
    expect((await createLink(inZero.url, 'per-database')).status).toBe(201);
    expect((await createLink(inThree.url, 'per-database')).status).toBe(201);
  });

  it('--workers 2 serves one port from two processes on the socket', async () => {
    const workers = await mock(redis!.socketUrl!, 'sock-workers:', '--workers', '2');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => createLink(workers.url, `worker-${i}`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 201));
    expect((await createLink(workers.url, 'worker-0')).status).toBe(400);
  });

  it('a socket nobody listens on: exit 2 with one line naming the URL, its password masked', async () => {
    const missing = `unix://mock:hunter2@${join(dir, 'nobody.sock')}`;
    const result = await runCli(['--port', '0', '--db', missing], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`shortlink-mock: --db: cannot connect to Redis at unix://***@${join(dir, 'nobody.sock')}: connect ENOENT ${join(dir, 'nobody.sock')}`);
  });

  it('a malformed unix:// URL: exit 2 with one line saying the form', async () => {
    const result = await runCli(['--port', '0', '--db', 'unix://redis.sock'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual(['shortlink-mock: --db: cannot connect to Redis at unix://redis.sock: a Unix socket is given as unix:///absolute/path/to/redis.sock, optionally with user:password@ before the path and ?db=N after it']);
  });
});
