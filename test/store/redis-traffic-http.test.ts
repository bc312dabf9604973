// Two mocks (two apps, each with its own connection) over one traffic state on Redis, through
// HTTP: a scenario switched through one shapes the next request on the other; the journal, its
// live stream and coverage show the requests of both through either; clearing and reset through
// one count for both. Each app keeps its own memory link store: only the traffic state is shared.
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { maskApiKey, type JournalEntry } from '../../src/core/journal.js';
import { freshPrefix } from '../helpers/redis-store.js';
import { RedisTrafficStates, type TrafficInstance } from '../helpers/redis-traffic.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';
import { createTestApp, DEMO, OTHER, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from '../admin/admin-contract.js';

const WAIT_MS = 5_000;
const CREATE = { destinationUrl: 'https://example.com/shared', domain: 'short.test', tags: [] };

let url: string;
const states = new RedisTrafficStates();
let one: { app: TestApp; traffic: TrafficInstance };
let two: { app: TestApp; traffic: TrafficInstance };
let server: http.Server | undefined;

beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(async () => {
  const prefix = freshPrefix();
  const open = async () => {
    const traffic = await states.open(url, prefix);
    return { traffic, app: await createTestApp({ traffic: traffic.state }) };
  };
  one = await open();
  two = await open();
});
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
  await states.closeAll();
});

const create = (on: TestApp, key = DEMO) => on.request.post('/links').set('x-api-key', key).send(CREATE);
/** What both instances recorded so far is in Redis (a request's record is sent after its answer). */
const settled = () => Promise.all([one.traffic.state.flush(), two.traffic.state.flush()]);

describe('two mocks sharing their traffic state on Redis', () => {
  it('a scenario switched through one answers the next request on the other; health and the list agree', async () => {
    expectAdminResponse(await one.app.request.put('/__admin/scenario').send({ name: 'not-found' }), 'PUT', '/__admin/scenario');
    const res = await create(two.app);
    expect(res.status).toBe(404);
    const scenarios = await two.app.request.get('/__admin/scenarios');
    expectAdminResponse(scenarios, 'GET', '/__admin/scenarios');
    expect(scenarios.body).toMatchObject({ active: 'not-found' });
    expect((scenarios.body as { scenarios: { name: string; active: boolean }[] }).scenarios.filter((s) => s.active).map((s) => s.name)).toEqual(['not-found']);
    expect((await two.app.request.get('/__admin/health')).body).toMatchObject({ scenario: 'not-found' });
    await two.app.request.put('/__admin/scenario').send({ name: null });
    expect((await create(one.app)).status).toBe(201);
  });

  it('times: 1 applies once across both; a reset through either starts the counters over for both', async () => {
    await one.app.request.put('/__admin/scenario').send({ name: 'flaky-network' });
    await expect(create(two.app)).rejects.toThrow();
    expect((await create(one.app)).status).toBe(201);
    expect((await create(two.app)).status).toBe(201);
    expectAdminResponse(await two.app.request.post('/__admin/reset'), 'POST', '/__admin/reset');
    await expect(create(one.app)).rejects.toThrow();
    expect((await create(two.app)).status).toBe(201);
  });

  it('the journal lists the requests of both, oldest first, through either; clearing through one clears both', async () => {
    await create(one.app);
    await settled();
    await create(two.app, OTHER).set('x-mock-scenario', 'link-limit-reached');
    await settled();
    for (const on of [one, two]) {
      const res = await on.app.request.get('/__admin/requests');
      expectAdminResponse(res, 'GET', '/__admin/requests');
      const entries = (res.body as { entries: JournalEntry[] }).entries;
      expect(entries.map((e) => [e.seq, e.apiKey, e.status, e.scenario])).toEqual([
        [1, maskApiKey(DEMO), 201, null],
        [2, maskApiKey(OTHER), 400, 'link-limit-reached'],
      ]);
    }
    expect((await two.app.request.get('/__admin/requests').query({ account: OTHER })).body.entries).toHaveLength(1);
    expect((await one.app.request.delete('/__admin/requests')).status).toBe(204);
    expect((await two.app.request.get('/__admin/requests')).body).toMatchObject({ size: 1000, entries: [] });
  });

  it('the live stream of one sends the requests answered by the other', async () => {
    server = two.app.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/__admin/requests/stream', agent: false }, resolve).once('error', reject);
    });
    stream.setEncoding('utf8');
    let text = '';
    const received = (pattern: RegExp): Promise<void> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`stream never matched ${String(pattern)}: ${text}`)), WAIT_MS);
        const check = (chunk = ''): void => {
          text += chunk;
          if (!pattern.test(text)) return;
          clearTimeout(timer);
          stream.off('data', check);
          resolve();
        };
        stream.on('data', check);
        check();
      });
    await received(/: connected\n\n/);
    await create(one.app);
    await received(/event: entry\ndata: .*\n\n/);
    const [event] = [...text.matchAll(/event: entry\ndata: (.*)\n\n/g)];
    expect(JSON.parse(event?.[1] ?? 'null')).toMatchObject({ seq: 1, method: 'POST', path: '/links', status: 201, apiKey: maskApiKey(DEMO) });
    stream.destroy();
  });

  it('coverage recorded through both is reported by either; clearing through one clears both', async () => {
    await create(one.app);
    await create(two.app);
    await two.app.request.delete('/links/lnk_missing');
    await settled();
    const res = await one.app.request.get('/__admin/coverage');
    expectAdminResponse(res, 'GET', '/__admin/coverage');
    const accounts = (res.body as { accounts: { apiKey: string | null; seen: unknown[] }[] }).accounts;
    expect(accounts.map((entry) => [entry.apiKey, entry.seen])).toEqual([
      [maskApiKey(DEMO), [{ operationId: 'createLink', status: 201, code: null, count: 2 }]],
      [null, [{ operationId: 'deleteLink', status: 401, code: null, count: 1 }]],
    ]);
    expect((await two.app.request.get('/__admin/coverage')).body).toEqual(res.body);
    expect((await two.app.request.delete('/__admin/coverage')).status).toBe(204);
    expect((await one.app.request.get('/__admin/coverage')).body).toMatchObject({ accounts: [] });
  });
});
