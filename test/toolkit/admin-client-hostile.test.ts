// The admin client pointed at a server that is not a mock (connectMock, robustness --base-url,
// pact export --base-url, coverage, drift): each route's answer is read up to what that route can
// legitimately hold (docs/options.md, Limits), checked for its shape before use, and a redirect is
// never followed (the admin token would go with it). Each refusal is one AdminApiError naming the URL.
import { afterEach, describe, expect, test } from 'vitest';
import { AdminApiError, AdminClient, type Query } from '../../src/toolkit/admin-client.js';
import { hostileAdmin, itemsFor, type HostileServer } from '../helpers/hostile-admin.js';

const KiB = 1024;
const MiB = 1024 * KiB;

let servers: HostileServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(...args: Parameters<typeof hostileAdmin>): Promise<HostileServer> {
  const server = await hostileAdmin(...args);
  servers.push(server);
  return server;
}

interface Route {
  method: string;
  path: string;
  query?: Query;
  /** What the route can hold at most, as docs/options.md states it (the journal: 16 KiB per entry asked, 1,000 by default). */
  bound: number;
  /** Answers of another shape than the route's, each of which must be refused. */
  odd: string[];
}

const NOT_A_MOCK = ['null', '[]', '"ok"', '{}', '<html>hello</html>'];
const ROUTES: Route[] = [
  { method: 'GET', path: '/health', bound: 1 * MiB, odd: ['{"status":"ok"}', '{"version":5}'] },
  { method: 'GET', path: '/variety/dimensions', bound: 1 * MiB, odd: ['{"dimensions":{}}', '{"dimensions":[{}]}', '{"dimensions":[{"name":1,"description":"d"}]}'] },
  { method: 'PUT', path: '/variety', bound: 1 * MiB, odd: [] },
  { method: 'GET', path: '/requests', bound: 1_000 * 16 * KiB, odd: ['{"entries":{}}', '{"entries":[{}]}', '{"size":"x","entries":[]}', '{"entries":[{"seq":"1","method":"GET","path":"/"}]}'] },
  { method: 'GET', path: '/requests', query: { limit: 1 }, bound: 16 * KiB, odd: ['{"entries":null}', '{"entries":[{"seq":1,"method":"GET","path":"/","variety":{"dimensions":3}}]}'] },
  // robustness asks for up to 5,000 entries: 16 KiB each would be 80 MiB; no answer is read past 32 MiB.
  { method: 'GET', path: '/requests', query: { limit: 5_000 }, bound: 32 * MiB, odd: [] },
  { method: 'GET', path: '/accounts', bound: 8 * MiB, odd: ['{"accounts":{}}', '{"accounts":[5]}'] },
  { method: 'GET', path: '/coverage', bound: 8 * MiB, odd: ['{"documented":[]}', '{"documented":[],"accounts":{}}'] },
  { method: 'GET', path: '/violations', bound: 2_000 * 16 * KiB, odd: ['{"distinct":0,"dropped":0}', '{"distinct":"0","dropped":0,"groups":[]}'] },
  { method: 'GET', path: '/links', query: { account: 'k' }, bound: 8 * MiB, odd: ['{"links":{}}', '{"links":[],"nextCursor":5}'] },
];

const label = (route: Route): string => `${route.method} ${route.path}${route.query ? `?${new URLSearchParams(route.query as Record<string, string>)}` : ''}`;
const call = (client: AdminClient, route: Route): Promise<unknown> => client.call(route.method, route.path, route.method === 'PUT' ? { seed: 1 } : undefined, route.query ?? {});

describe('AdminClient: an answer past what its route can hold', () => {
  test.each(ROUTES.map((route) => [label(route), route] as const))('%s is refused in one line naming the URL, and not read on', async (_name, route) => {
    // Well-formed JSON just past the route's bound: only its size is wrong.
    const server = await serve(() => ({ head: '{"pad":[', item: '{}', count: itemsFor(route.bound + 64 * KiB, '{}'), tail: ']}' }));
    const refusal = await call(new AdminClient(server.url), route).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AdminApiError);
    const message = (refusal as AdminApiError).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain(`${server.url}/__admin${route.path}`);
    expect(message).toMatch(new RegExp(`more than ${route.bound} bytes`));
    // The client stopped reading at the bound: what was written beyond it sat in socket buffers only.
    expect(server.written()).toBeLessThan(route.bound + 16 * MiB);
  });
});

describe('AdminClient: an answer of another shape than its route', () => {
  const cases = ROUTES.flatMap((route) => [...NOT_A_MOCK.filter(() => route.method === 'GET'), ...route.odd].map((body) => [label(route), body, route] as const));
  test.each(cases)('%s answering %s is refused in one line naming the URL', async (_name, body, route) => {
    const server = await serve(() => ({ body }));
    const refusal = await call(new AdminClient(server.url), route).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AdminApiError);
    expect((refusal as AdminApiError).message.split('\n')).toHaveLength(1);
    expect((refusal as AdminApiError).message).toContain(`${server.url}/__admin${route.path}`);
  });
});

describe('AdminClient: redirects', () => {
  test.each(['GET /health', 'POST /reset', 'GET /requests'])('a 307 on %s is refused naming the URL and the Location; the token never leaves', async (request) => {
    const [method = 'GET', path = '/health'] = request.split(' ');
    const elsewhere = await serve(() => ({ body: '{"status":"ok","version":"9","entries":[]}' }));
    const target = `${elsewhere.url}/__admin${path}`;
    const server = await serve(() => ({ status: 307, headers: { location: target } }));
    const client = new AdminClient(server.url, { adminToken: 'the-secret-token' });
    const refusal = await client.call(method, path).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AdminApiError);
    const message = (refusal as AdminApiError).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain(`${server.url}/__admin${path}`);
    expect(message).toContain(target);
    expect(elsewhere.seen).toEqual([]);
    expect(server.seen).toEqual([{ request: `${method} /__admin${path}`, token: 'the-secret-token' }]);
  });
});
