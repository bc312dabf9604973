// `shortlink-mock --db redis://…` as a user runs it: real processes on one redis-server of the
// test's own. Instances are one mock (D21, D22); an unreachable Redis is a one-line exit 2 and a
// Redis that goes away is a 500 `store unavailable:` within 2 s and a 503 health, both gone by
// themselves once it is back (D25); --workers serves one port from several processes (D26).
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
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), 'slm-redis-cli-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop('SIGKILL')));
});
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let prefixes = 0;
const freshPrefix = (): string => `cli-${process.pid}-${++prefixes}:`;

async function mock(prefix: string, ...extra: string[]): Promise<CliProcess> {
  const cli = await startCli(['--db', redis!.url, '--redis-prefix', prefix, '--quiet', ...extra], dir);
  running.push(cli);
  return cli;
}

const createLink = (url: string, body: Record<string, unknown>): Promise<Response> =>
  fetch(`${url}/links`, {
    method: 'POST',
    headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
    body: JSON.stringify({ destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [], ...body }),
  });

/** Polls `check` until it holds or the bound passes; the answer of the last try. */
async function eventually<T>(check: () => Promise<T>, holds: (value: T) => boolean, limitMs: number): Promise<T> {
  const end = Date.now() + limitMs;
  let value = await check();
  for (let tries = 0; !holds(value) && Date.now() < end && tries < 500; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await check();
  }
  return value;
}

describe('instances on one Redis are one mock', () => {
  it('a link created through one is updated through the other; a slug is taken once; a snapshot travels; a reset through one resets both', async () => {
    const prefix = freshPrefix();
    const [a, b] = await Promise.all([mock(prefix), mock(prefix)]);
    // Started together on an empty prefix: exactly one seeded it.
    expect([a.output(), b.output()].filter((output) => /seeded with seed/.test(output))).toHaveLength(1);
    const created = await createLink(a.url, { slug: 'one-mock', tags: [{ name: 'shared' }] });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await createLink(b.url, { slug: 'one-mock' })).status).toBe(400);
    const updated = await fetch(`${b.url}/links/${id}`, { method: 'PUT', headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' }, body: JSON.stringify({ tags: [{ name: 'shared' }] }) });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { tags: { name: string }[] }).tags.map((tag) => tag.name)).toEqual(['shared']);

    expect((await fetch(`${a.url}/__admin/snapshots/before-reset`, { method: 'POST' })).status).toBe(201);
    expect((await fetch(`${b.url}/__admin/reset`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${a.url}/links/${id}`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key' } })).status).toBe(404);
    expect((await fetch(`${b.url}/__admin/snapshots/before-reset/restore`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${a.url}/links/${id}`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key' } })).status).toBe(204);
  });

  it('a second instance started after the first, which still runs, says the data was seeded by another instance', async () => {
    const prefix = freshPrefix();
    const first = await mock(prefix);
    expect(first.output()).toMatch(/seeded with seed/);
    const second = await mock(prefix);
    expect(second.output()).toMatch(/\(seeded by another instance, running now; --reset re-seeds it\)/);
    expect(second.output()).not.toMatch(/earlier run/);
  });

  it('the data outlives the instances: a restart on the same prefix keeps it (no re-seed)', async () => {
    const prefix = freshPrefix();
    const first = await mock(prefix);
    const { id } = (await (await createLink(first.url, {})).json()) as { id: string };
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = await mock(prefix);
    expect(second.output()).toMatch(/kept from an earlier run/);
    expect((await fetch(`${second.url}/links/${id}`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key' } })).status).toBe(204);
  });
});

describe('Redis unavailable (D25)', () => {
  it('at start: exit 2 with one line naming the URL', async () => {
    const result = await runCli(['--port', '0', '--db', 'redis://127.0.0.1:1/0'], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^shortlink-mock: --db: cannot connect to Redis at redis:\/\/127\.0\.0\.1:1\/0: /);
  });

  it('while serving: a 500 store unavailable within 2 s and a 503 health; by itself again once Redis is back', async () => {
    const own = await startRedis({ persistence: 'aof' });
    try {
      const cli = await startCli(['--db', own.url, '--quiet'], dir);
      running.push(cli);
      const { id } = (await (await createLink(cli.url, {})).json()) as { id: string };
      await own.kill9();
      const started = Date.now();
      const refused = await createLink(cli.url, {});
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(refused.status).toBe(500);
      expect(((await refused.json()) as { errorDescription: string }).errorDescription).toMatch(/^store unavailable: /);
      const health = await fetch(`${cli.url}/__admin/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('Redis') });

      await own.restart();
      const back = await eventually(() => fetch(`${cli.url}/__admin/health`).then((res) => res.status), (status) => status === 200, 5_000);
      expect(back).toBe(200);
      // Acknowledged before Redis went away, kept (appendfsync always): the link is still there.
      expect((await fetch(`${cli.url}/links/${id}`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key' } })).status).toBe(204);
    } finally {
      await own.stop();
    }
  });
});

describe('--workers (D26)', () => {
  it('serves one port from two processes on one Redis, and SIGTERM to the primary stops them all', async () => {
    const cli = await mock(freshPrefix(), '--workers', '2');
    await cli.waitForOutput(/2 workers serving one port/);
    expect(new Set([...cli.output().matchAll(/listening on (http:\/\/\S+)/g)].map((match) => match[1])).size).toBe(1);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => createLink(cli.url, { slug: `w-${i}` })));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
    running.splice(running.indexOf(cli), 1);
    expect(await cli.stop('SIGTERM')).toBe(0);
    expect(cli.output().match(/stopped; every acknowledged change is written/g)).toHaveLength(2);
  });

  it('prints the start-up banner once, from the primary, however many workers serve', async () => {
    const cli = await mock(freshPrefix(), '--workers', '2');
    await cli.waitForOutput(/2 workers serving one port/);
    const output = cli.output();
    expect(output.match(/listening on http/g)).toHaveLength(1);
    expect(output.match(/^ {2}(contract|db|console|docs|health|scenarios|API keys|try) /gm)).toHaveLength(8);
  });

  it('a start whose workers cannot reach Redis fails with exit 2, like a single process', async () => {
    const result = await runCli(['--port', '0', '--workers', '2', '--db', 'redis://127.0.0.1:1/0'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^shortlink-mock: --db: cannot connect to Redis at redis:\/\/127\.0\.0\.1:1\/0: /m);
  });

  it('is refused on a file store with one line pointing to redis://', async () => {
    const result = await runCli(['--port', '0', '--workers', '2'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^shortlink-mock: --workers 2 needs state shared by every worker: start with --db redis:\/\/host:port/);
  });
});
