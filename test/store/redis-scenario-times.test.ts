// PUT /__admin/scenario with `times` (issue 41) on two `shortlink-mock --db redis://…` processes
// sharing one prefix, over HTTP: the count is one for both (a use taken through either, the
// scenario cleared for both when it runs out), and racing requests spread over the two take
// exactly `times` forced answers, never more (each use is taken by one Lua script call).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCli, type CliProcess } from '../helpers/cli-process.js';
import { freshPrefix } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const CREATE = { destinationUrl: 'https://example.com/times', domain: 'short.test', tags: [] };
let dir: string;
let instances: CliProcess[] = [];

beforeAll(async () => {
  const url = sharedRedisUrl();
  dir = mkdtempSync(join(tmpdir(), 'slm-redis-times-'));
  const args = ['--db', url, '--redis-prefix', freshPrefix(), '--quiet'];
  instances = [await startCli(args, dir)];
  instances.push(await startCli(args, dir));
});
afterAll(async () => {
  await Promise.all(instances.map((cli) => cli.stop('SIGKILL')));
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await admin(0, 'PUT', '/scenario', { name: null });
  await admin(1, 'PUT', '/scenario', { name: null, apiKey: 'demo-key' });
});

const via = (i: number): string => instances[i % instances.length]!.url;

async function admin(i: number, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${via(i)}/__admin${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function create(i: number): Promise<number> {
  const res = await fetch(`${via(i)}/links`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'demo-key' }, body: JSON.stringify(CREATE) });
  await res.arrayBuffer();
  return res.status;
}

describe('times on two instances sharing Redis', () => {
  it('times: 2 set through one: two forced answers across both, then normal ones on both; each shows the uses left', async () => {
    expect(await admin(0, 'PUT', '/scenario', { name: 'link-limit-reached', times: 2 })).toEqual({ status: 200, body: { active: 'link-limit-reached', timesLeft: 2 } });
    expect((await admin(1, 'GET', '/scenario')).body).toEqual({ active: 'link-limit-reached', byKey: {}, timesLeft: { global: 2, byKey: {} } });
    expect(await create(1)).toBe(400);
    expect((await admin(0, 'GET', '/scenario')).body).toEqual({ active: 'link-limit-reached', byKey: {}, timesLeft: { global: 1, byKey: {} } });
    expect(await create(0)).toBe(400);
    expect((await admin(1, 'GET', '/scenario')).body).toEqual({ active: null, byKey: {} });
    expect([await create(0), await create(1)]).toEqual([201, 201]);
  });

  it('20 racing creates over both with times: 5 (global, then one key): exactly 5 forced answers', async () => {
    for (const body of [{ name: 'link-limit-reached', times: 5 }, { name: 'link-limit-reached', apiKey: 'demo-key', times: 5 }]) {
      expect((await admin(0, 'PUT', '/scenario', body)).status).toBe(200);
      const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i)));
      expect(statuses.filter((status) => status === 400)).toHaveLength(5);
      expect(statuses.filter((status) => status === 201)).toHaveLength(15);
      expect((await admin(1, 'GET', '/scenario')).body).toEqual({ active: null, byKey: {} });
    }
  });

  it('a hostile times through either is a 400 Error object and leaves the shared state as it was', async () => {
    await admin(0, 'PUT', '/scenario', { name: 'not-found', apiKey: 'other-key', times: 3 });
    const before = (await admin(1, 'GET', '/scenario')).body;
    for (const times of [0, -1, 1.5, 1e300, '2']) {
      const res = await admin(1, 'PUT', '/scenario', { name: 'link-limit-reached', times });
      expect(res.status).toBe(400);
      expect(res.body['errorDescription']).toMatch(/times/);
    }
    expect((await admin(0, 'GET', '/scenario')).body).toEqual(before);
    expect(await create(0)).toBe(201);
  });
});
