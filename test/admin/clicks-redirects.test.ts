// Clicks for real: a visit of a short URL (/__r/<domain>/<slug>, or GET /<slug> with
// Host: <domain>) answers a 302 to the destination and raises that link's clickCount.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Link } from '../../src/core/api-types.js';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, OTHER, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function createLink(body: Record<string, unknown>, key = DEMO): Promise<Link> {
  const res = await t.request.post('/links').set('x-api-key', key).send({ tags: [], ...body });
  expectLink(res, 201);
  return res.body as Link;
}
async function adminLink(key: string, id: string): Promise<Link | undefined> {
  const res = await t.request.get('/__admin/links').query({ account: key });
  expectAdminResponse(res, 'GET', '/__admin/links');
  return (res.body as { links: Link[] }).links.find((link) => link.id === id);
}
/** The API's own view of the link: an update that changes nothing but answers the Link. */
async function viaUpdate(id: string, key = DEMO): Promise<Link> {
  const res = await t.request.put(`/links/${id}`).set('x-api-key', key).send({ tags: [] });
  expectLink(res, 200);
  return res.body as Link;
}

describe('GET /__r/<domain>/<slug>', () => {
  it('answers a 302 to the destination and counts one click per visit', async () => {
    const link = await createLink({ destinationUrl: 'https://example.com/landing?a=1', domain: 'short.test', slug: 'visit-me' });
    for (const expected of [1, 2, 3]) {
      const res = await t.request.get('/__r/short.test/visit-me');
      expect(res.status).toBe(302);
      expect(res.headers['location']).toBe('https://example.com/landing?a=1');
      expect((await adminLink(DEMO, link.id))?.clickCount).toBe(expected);
    }
    expect((await viaUpdate(link.id)).clickCount).toBe(3);
  });

  it('works for seeded links on a custom domain, raising their existing count', async () => {
    const seeded = (await t.request.get('/__admin/links').query({ account: OTHER })).body as { links: Link[] };
    const link = seeded.links.find((candidate) => candidate.domain.name === 'links.globex.test');
    if (!link) throw new Error('other-key has no seeded link on links.globex.test');
    const res = await t.request.get(`/__r/links.globex.test/${link.slug}`);
    expect(res.status).toBe(302);
    expect(res.headers['location']).toBe(link.destinationUrl);
    expect((await viaUpdate(link.id, OTHER)).clickCount).toBe((link.clickCount ?? 0) + 1);
  });

  it.each([
    ['an unknown slug', '/__r/short.test/no-such-slug'],
    ['an unknown domain', '/__r/nowhere.test/visit-me'],
    ['a slug of another domain', '/__r/go.acme.test/visit-me'],
  ])('%s is a 404 Error object', async (_what, path) => {
    const link = await createLink({ destinationUrl: 'https://example.com', domain: 'short.test', slug: 'visit-me' });
    expectError(await t.request.get(path), 404);
    expect((await adminLink(DEMO, link.id))?.clickCount).toBe(0);
  });

  it('a deleted link is no longer visited', async () => {
    const link = await createLink({ destinationUrl: 'https://example.com', domain: 'short.test', slug: 'gone' });
    expect((await t.request.delete(`/links/${link.id}`).set('x-api-key', DEMO)).status).toBe(204);
    expectError(await t.request.get('/__r/short.test/gone'), 404);
  });
});

describe('GET /<slug> with Host: <domain>', () => {
  it('answers a 302 and counts a click (Host with or without a port)', async () => {
    const link = await createLink({ destinationUrl: 'https://example.com/spring-sale', domain: 'go.acme.test', slug: 'spring' });
    for (const host of ['go.acme.test', 'go.acme.test:4010', 'GO.ACME.TEST']) {
      const res = await t.request.get('/spring').set('Host', host);
      expect(res.status).toBe(302);
      expect(res.headers['location']).toBe('https://example.com/spring-sale');
    }
    expect((await viaUpdate(link.id)).clickCount).toBe(3);
  });

  it('an unknown slug on a known domain is a 404 Error object', async () => {
    expectError(await t.request.get('/no-such-slug').set('Host', 'go.acme.test'), 404);
  });

  it('a slug on another domain than the Host is not visited', async () => {
    const link = await createLink({ destinationUrl: 'https://example.com', domain: 'short.test', slug: 'only-here' });
    expectError(await t.request.get('/only-here').set('Host', 'go.acme.test'), 404);
    expect((await viaUpdate(link.id)).clickCount).toBe(0);
  });

  it('never shadows the API: create, update and delete still work with Host: short.test', async () => {
    const created = await t.request.post('/links').set('Host', 'short.test').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com', domain: 'short.test', slug: 'links', tags: [] });
    expectLink(created, 201);
    const id = (created.body as Link).id;
    expectLink(await t.request.put(`/links/${id}`).set('Host', 'short.test').set('x-api-key', DEMO).send({ tags: [] }), 200);
    expect((await t.request.delete(`/links/${id}`).set('Host', 'short.test').set('x-api-key', DEMO)).status).toBe(204);
    expect((await t.request.get('/openapi.yaml').set('Host', 'short.test')).status).toBe(200);
    // The admin API is no short URL: without --admin-token it answers loopback names only (D29).
    expect((await t.request.get('/__admin/health').set('Host', 'short.test')).status).toBe(403);
  });

  it('a Host that is no short-link domain is the API as usual', async () => {
    const link = await createLink({ destinationUrl: 'https://example.com', domain: 'short.test', slug: 'spring' });
    expectError(await t.request.get('/spring').set('Host', 'api.example.test'), 404, { mentions: /no operation/ });
    expect((await viaUpdate(link.id)).clickCount).toBe(0);
  });

  it('only GET visits: POST /<slug> with a short-link Host is the API\'s answer', async () => {
    await createLink({ destinationUrl: 'https://example.com', domain: 'short.test', slug: 'spring' });
    const res = await t.request.post('/spring').set('Host', 'short.test').set('x-api-key', DEMO).send({});
    expect(res.status).not.toBe(302);
    expectError(res, 404);
  });
});
