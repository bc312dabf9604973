// Every admin route with its documented statuses; each answer is checked against the admin API's
// own document (src/admin/openapi.yaml) by an independent Ajv.
import { parse } from 'yaml';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Link } from '../../src/core/api-types.js';
import { expectError } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, LIMITED, OTHER, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

const CREATE = { destinationUrl: 'https://example.com/admin', domain: 'short.test', tags: [] };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const create = (key: string, body: object = CREATE) => t.request.post('/links').set('x-api-key', key).send(body);
async function linksOf(key: string): Promise<Link[]> {
  const res = await t.request.get('/__admin/links').query({ account: key });
  expectAdminResponse(res, 'GET', '/__admin/links');
  expect(res.status).toBe(200);
  return (res.body as { links: Link[] }).links;
}
async function firstLinkOf(key: string): Promise<Link> {
  const [link] = await linksOf(key);
  if (!link) throw new Error(`${key} has no links`);
  return link;
}

describe('health and reset', () => {
  it('GET /__admin/health answers ok with counts', async () => {
    const res = await t.request.get('/__admin/health');
    expectAdminResponse(res, 'GET', '/__admin/health');
    expect(res.body).toMatchObject({ status: 'ok', version: 'test', accounts: 3, links: 60, scenario: null });
  });

  it('POST /__admin/reset brings back exactly the state of a fresh app', async () => {
    const fresh = await createTestApp();
    const link = await firstLinkOf(DEMO);
    expect((await create(DEMO)).status).toBe(201);
    expect((await t.request.delete(`/links/${link.id}`).set('x-api-key', DEMO)).status).toBe(204);
    await t.request.post(`/__admin/links/${(await firstLinkOf(OTHER)).id}/clicks`).send({ count: 5 });
    await t.request.put(`/__admin/accounts/${DEMO}/limit`).send({ linkLimit: 1 });
    expect((await t.data())).not.toEqual((await fresh.data()));

    const res = await t.request.post('/__admin/reset');
    expectAdminResponse(res, 'POST', '/__admin/reset');
    expect(res.body).toEqual({ status: 'reset', accounts: 3, links: 60 });
    expect((await t.data())).toEqual((await fresh.data()));
    for (const key of [DEMO, OTHER, LIMITED]) {
      expect((await t.request.get('/__admin/links').query({ account: key })).text).toBe((await fresh.request.get('/__admin/links').query({ account: key })).text);
    }
    expect((await t.request.get('/__admin/accounts')).text).toBe((await fresh.request.get('/__admin/accounts')).text);
  });
});

describe('scenarios', () => {
  it('lists the built-in scenarios, sets one globally, clears it', async () => {
    const listed = await t.request.get('/__admin/scenarios');
    expectAdminResponse(listed, 'GET', '/__admin/scenarios');
    const names = (listed.body as { scenarios: { name: string }[] }).scenarios.map((scenario) => scenario.name);
    expect(names).toEqual(expect.arrayContaining(['unauthorized', 'invalid-request', 'not-found', 'link-limit-reached', 'slow', 'flaky-network']));
    expect(listed.body).toMatchObject({ active: null });

    const set = await t.request.put('/__admin/scenario').send({ name: 'not-found' });
    expectAdminResponse(set, 'PUT', '/__admin/scenario');
    expect(set.body).toEqual({ active: 'not-found' });
    const after = await t.request.get('/__admin/scenarios');
    expect(after.body).toMatchObject({ active: 'not-found' });
    expect((after.body as { scenarios: { name: string; active: boolean }[] }).scenarios.filter((s) => s.active).map((s) => s.name)).toEqual(['not-found']);
    expectError(await create(DEMO), 404);
    expect((await t.request.get('/__admin/health')).body).toMatchObject({ scenario: 'not-found' });

    const unset = await t.request.put('/__admin/scenario').send({ name: null });
    expectAdminResponse(unset, 'PUT', '/__admin/scenario');
    expect(unset.body).toEqual({ active: null });
    expect((await create(DEMO)).status).toBe(201);
  });

  it.each([
    ['an unknown name (the known ones are listed)', { name: 'no-such-scenario' }, /no-such-scenario[\s\S]*link-limit-reached/],
    ['no name field', {}, /name/],
    ['a number', { name: 3 }, /'name' must be string/],
    ['an extra field', { name: null, extra: true }, /extra/],
  ])('PUT /__admin/scenario with %s is a 400', async (_what, body, mentions) => {
    const res = await t.request.put('/__admin/scenario').send(body);
    expectAdminResponse(res, 'PUT', '/__admin/scenario');
    expectError(res, 400, { mentions });
    expect((await t.request.get('/__admin/scenarios')).body).toMatchObject({ active: null });
  });
});

describe('accounts and link limits', () => {
  it('GET /__admin/accounts lists every account with key, domains, limit and link count', async () => {
    const res = await t.request.get('/__admin/accounts');
    expectAdminResponse(res, 'GET', '/__admin/accounts');
    const accounts = (res.body as { accounts: { apiKey: string; linkLimit: number; links: number; domains: { name: string }[] }[] }).accounts;
    expect(accounts.map(({ apiKey, linkLimit, links, domains }) => ({ apiKey, linkLimit, links, domains: domains.map((d) => d.name) }))).toEqual([
      { apiKey: DEMO, linkLimit: 1_000_000, links: 40, domains: ['short.test', 'go.acme.test'] },
      { apiKey: OTHER, linkLimit: 1000, links: 15, domains: ['short.test', 'links.globex.test'] },
      { apiKey: LIMITED, linkLimit: 5, links: 5, domains: ['short.test'] },
    ]);
  });

  it('LINK_LIMIT_REACHED for real in two requests: a limit one above the count, then two creates', async () => {
    const res = await t.request.put(`/__admin/accounts/${OTHER}/limit`).send({ linkLimit: 16 });
    expectAdminResponse(res, 'PUT', '/__admin/accounts/{apiKey}/limit');
    expect(res.body).toMatchObject({ apiKey: OTHER, linkLimit: 16, links: 15 });
    expect((await create(OTHER)).status).toBe(201);
    expectError(await create(OTHER), 400, { code: 'LINK_LIMIT_REACHED', mentions: /16/ });
  });

  it('raising limited-key\'s limit lets it create again', async () => {
    expectError(await create(LIMITED), 400, { code: 'LINK_LIMIT_REACHED' });
    expectAdminResponse(await t.request.put(`/__admin/accounts/${LIMITED}/limit`).send({ linkLimit: 6 }), 'PUT', '/__admin/accounts/{apiKey}/limit');
    expect((await create(LIMITED)).status).toBe(201);
  });

  it.each([
    { what: 'an unknown key', key: 'no-such-key', body: { linkLimit: 3 }, status: 404 },
    { what: 'a negative limit', key: DEMO, body: { linkLimit: -1 }, status: 400 },
    { what: 'a fractional limit', key: DEMO, body: { linkLimit: 1.5 }, status: 400 },
    { what: 'a string "3"', key: DEMO, body: { linkLimit: '3' }, status: 400 },
    { what: 'no limit', key: DEMO, body: {}, status: 400 },
  ])('PUT /__admin/accounts/{apiKey}/limit with $what is a $status', async ({ key, body, status }) => {
    const res = await t.request.put(`/__admin/accounts/${key}/limit`).send(body);
    expectAdminResponse(res, 'PUT', '/__admin/accounts/{apiKey}/limit');
    expect(res.status).toBe(status);
    if (status !== 404) expect((await t.request.get('/__admin/accounts')).body).toMatchObject({ accounts: [{ apiKey: DEMO, linkLimit: 1_000_000 }, {}, {}] });
  });
});

describe('links and clicks', () => {
  it('GET /__admin/links?account lists an account\'s links, a new one first', async () => {
    expect(await linksOf(DEMO)).toHaveLength(40);
    const created = (await create(DEMO)).body as Link;
    const links = await linksOf(DEMO);
    expect(links).toHaveLength(41);
    expect(links[0]).toEqual(created);
  });

  it('GET /__admin/links lists the seeded links newest first too (by createdAt)', async () => {
    const createdAts = (await linksOf(DEMO)).map((link) => link.createdAt);
    expect(createdAts).toEqual([...createdAts].sort().reverse());
  });

  it('GET /__admin/links pages: limit links at most, nextCursor to the next page, every link once in order, none shifted by a new one (issue 23)', async () => {
    const all = await linksOf(DEMO);
    const seen: Link[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page += 1) {
      const res = await t.request.get('/__admin/links').query({ account: DEMO, limit: 7, ...(cursor ? { cursor } : {}) });
      expectAdminResponse(res, 'GET', '/__admin/links');
      const body = res.body as { links: Link[]; nextCursor?: string };
      expect(body.links.length).toBeLessThanOrEqual(7);
      seen.push(...body.links);
      // A link made meanwhile is newer: it comes before every page, and shifts none.
      if (page === 0) expect((await create(DEMO)).status).toBe(201);
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    expect(seen.map((link) => link.id)).toEqual(all.map((link) => link.id));
  });

  it.each([
    { what: 'a limit of 0', query: { account: DEMO, limit: '0' }, status: 400 },
    { what: 'a limit over 1000', query: { account: DEMO, limit: '1001' }, status: 400 },
    { what: 'a cursor the mock did not give', query: { account: DEMO, cursor: 'bm90LWEtY3Vyc29y' }, status: 400 },
    { what: 'a huge cursor', query: { account: DEMO, cursor: 'W'.repeat(12_000) }, status: 400 },
    { what: 'a cursor of the old shape, without its account', query: { account: DEMO, cursor: Buffer.from('["2026-01-01T00:00:00.000Z","lnk_x"]').toString('base64url') }, status: 400 },
    { what: 'a cursor of JSON nested 5,000 deep', query: { account: DEMO, cursor: Buffer.from('['.repeat(5_000)).toString('base64url') }, status: 400 },
  ])('GET /__admin/links with $what is a 400 Error object', async ({ query, status }) => {
    const res = await t.request.get('/__admin/links').query(query);
    expectAdminResponse(res, 'GET', '/__admin/links');
    expectError(res, status);
  });

  it("GET /__admin/links with another account's cursor is a 400 Error object (issue 40)", async () => {
    const other = await t.request.get('/__admin/links').query({ account: OTHER, limit: 1 });
    expect(typeof other.body.nextCursor).toBe('string');
    const res = await t.request.get('/__admin/links').query({ account: DEMO, cursor: other.body.nextCursor });
    expectAdminResponse(res, 'GET', '/__admin/links');
    expectError(res, 400);
    expect(res.body.errorDescription).toMatch(/for this account/);
  });

  it.each([
    { what: 'an unknown account', query: { account: 'no-such-key' }, status: 404 },
    { what: 'no account parameter', query: {}, status: 400 },
    { what: 'an unknown parameter', query: { account: DEMO, extra: '1' }, status: 400 },
  ])('GET /__admin/links with $what is a $status', async ({ query, status }) => {
    const res = await t.request.get('/__admin/links').query(query);
    expectAdminResponse(res, 'GET', '/__admin/links');
    expect(res.status).toBe(status);
  });

  it('POST /__admin/links/{id}/clicks raises clickCount by count', async () => {
    const link = await firstLinkOf(DEMO);
    const res = await t.request.post(`/__admin/links/${link.id}/clicks`).send({ count: 7 });
    expectAdminResponse(res, 'POST', '/__admin/links/{id}/clicks');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...link, clickCount: (link.clickCount ?? 0) + 7 });
    expect((await firstLinkOf(DEMO)).clickCount).toBe((link.clickCount ?? 0) + 7);
  });

  it.each([
    { what: 'an unknown id', id: 'lnk_0000000000000000', body: { count: 1 }, status: 404 },
    { what: 'count 0', id: null, body: { count: 0 }, status: 400 },
    { what: 'a negative count', id: null, body: { count: -2 }, status: 400 },
    { what: 'no count', id: null, body: {}, status: 400 },
    { what: 'a count over the maximum', id: null, body: { count: 1_000_001 }, status: 400 },
    { what: 'a string "3"', id: null, body: { count: '3' }, status: 400 },
  ])('POST /__admin/links/{id}/clicks with $what is a $status', async ({ id, body, status }) => {
    const link = await firstLinkOf(DEMO);
    const res = await t.request.post(`/__admin/links/${id ?? link.id}/clicks`).send(body);
    expectAdminResponse(res, 'POST', '/__admin/links/{id}/clicks');
    expect(res.status).toBe(status);
    expect((await firstLinkOf(DEMO)).clickCount).toBe(link.clickCount);
  });
});

describe('snapshots', () => {
  it('save, list, restore (a deleted link comes back, a created one disappears), delete', async () => {
    const kept = await firstLinkOf(DEMO);
    const saved = await t.request.post('/__admin/snapshots/before-test');
    expectAdminResponse(saved, 'POST', '/__admin/snapshots/{name}');
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ name: 'before-test', links: 60 });

    const listed = await t.request.get('/__admin/snapshots');
    expectAdminResponse(listed, 'GET', '/__admin/snapshots');
    expect(listed.body).toEqual({ snapshots: [saved.body] });

    expect((await t.request.delete(`/links/${kept.id}`).set('x-api-key', DEMO)).status).toBe(204);
    const created = (await create(DEMO)).body as Link;
    const restored = await t.request.post('/__admin/snapshots/before-test/restore');
    expectAdminResponse(restored, 'POST', '/__admin/snapshots/{name}/restore');
    expect(restored.body).toEqual({ status: 'restored', accounts: 3, links: 60 });
    const ids = (await linksOf(DEMO)).map((link) => link.id);
    expect(ids).toContain(kept.id);
    expect(ids).not.toContain(created.id);
    expect((await t.request.put(`/links/${kept.id}`).set('x-api-key', DEMO).send({ tags: [] })).status).toBe(200);

    const deleted = await t.request.delete('/__admin/snapshots/before-test');
    expectAdminResponse(deleted, 'DELETE', '/__admin/snapshots/{name}');
    expect(deleted.status).toBe(204);
    const again = await t.request.delete('/__admin/snapshots/before-test');
    expectAdminResponse(again, 'DELETE', '/__admin/snapshots/{name}');
    expect(again.status).toBe(404);
    expect((await t.request.get('/__admin/snapshots')).body).toEqual({ snapshots: [] });
  });

  it('a snapshot is a copy: changes after saving do not leak into it', async () => {
    await t.request.post('/__admin/snapshots/s1');
    await create(DEMO);
    await t.request.post('/__admin/snapshots/s1/restore');
    await create(DEMO);
    const res = await t.request.post('/__admin/snapshots/s1/restore');
    expect(res.body).toEqual({ status: 'restored', accounts: 3, links: 60 });
  });

  it('restoring an unknown snapshot is a 404', async () => {
    const res = await t.request.post('/__admin/snapshots/never-saved/restore');
    expectAdminResponse(res, 'POST', '/__admin/snapshots/{name}/restore');
    expect(res.status).toBe(404);
  });

  it.each([
    ['POST', '/__admin/snapshots/{name}', '/__admin/snapshots/bad.name'],
    ['POST', '/__admin/snapshots/{name}', `/__admin/snapshots/${'x'.repeat(65)}`],
    ['POST', '/__admin/snapshots/{name}', '/__admin/snapshots/%2E%2E'],
    ['DELETE', '/__admin/snapshots/{name}', '/__admin/snapshots/bad.name'],
    ['POST', '/__admin/snapshots/{name}/restore', '/__admin/snapshots/bad.name/restore'],
  ] as const)('%s %s with a bad name is a 400', async (method, template, path) => {
    const res = await (method === 'POST' ? t.request.post(path) : t.request.delete(path));
    expectAdminResponse(res, method, template);
    expect(res.status).toBe(400);
  });
});

describe('the admin API itself', () => {
  it.each([
    ['GET', '/__admin/no-such-route', 404],
    ['POST', '/__admin/links/x/y/z', 404],
    ['DELETE', '/__admin/health', 405],
    ['DELETE', '/__admin/accounts', 405],
  ] as const)('%s %s is a %i Error object', async (method, path, status) => {
    const res = await (method === 'GET' ? t.request.get(path) : method === 'POST' ? t.request.post(path) : t.request.delete(path));
    // The whole path, as the client sent it: the admin router's own prefix was left out ("no route at /no-such-route").
    expectError(res, status, { mentions: `${status === 404 ? 'no route at' : 'method not allowed on'} ${path}` });
  });

  it('GET /__admin/openapi.yaml is the bundled YAML document, without file references', async () => {
    const res = await t.request.get('/__admin/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/yaml/);
    expect(res.text).not.toContain('../../openapi.yaml');
    const document = parse(res.text) as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/__admin/health', '/__admin/links/{id}/clicks', '/__admin/snapshots/{name}/restore']));
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Link', 'Error', 'Domain', 'JournalEntry']));
    const refs = [...res.text.matchAll(/\$ref['"]?:\s*['"]?([^'"\s}]+)/g)].map((match) => match[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref).toMatch(/^#\/components\//);
  });
});
