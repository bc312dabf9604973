// How variety is switched on (--variety / startMock, PUT /__admin/variety per key or global,
// x-mock-variety for one request), what the journal says of it, and that a variant the contract
// refuses is a 500, never sent.
import { describe, expect, it } from 'vitest';
import { createTestApp, DEMO, OTHER } from '../helpers/test-app.js';

const valid = { tags: [{ name: 'b' }, { name: 'a' }], destinationUrl: 'https://example.com/page', domain: 'short.test' };
const lastEntry = async (app: Awaited<ReturnType<typeof createTestApp>>) => {
  const { body } = await app.request.get('/__admin/requests?limit=1').expect(200);
  return (body as { entries: { variety: unknown; verdict: string; status: number }[] }).entries[0];
};

describe('variety off (the default)', () => {
  it('answers as always: charset, Content-Length, no gzip, and the journal says null', async () => {
    const app = await createTestApp();
    const res = await app.request.post('/links').set('x-api-key', DEMO).set('accept-encoding', 'gzip').send(valid).expect(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toHaveProperty('clickCount', 0);
    expect((await lastEntry(app))?.variety).toBeNull();
  });
});

describe('variety switched on', () => {
  it('for the whole mock from the start (--variety, startMock): the journal names the seed and the dimensions used', async () => {
    const app = await createTestApp({ variety: { seed: 5, only: ['createLink.clickCount:absent'] } });
    const res = await app.request.post('/links').set('x-api-key', DEMO).send(valid).expect(201);
    expect(res.body).not.toHaveProperty('clickCount');
    expect((await lastEntry(app))?.variety).toEqual({ seed: 5, dimensions: ['createLink.clickCount:absent'] });
  });

  it('per key through the admin API: other keys are untouched; GET shows it, DELETE clears it', async () => {
    const app = await createTestApp();
    const set = await app.request.put('/__admin/variety').send({ seed: 9, apiKey: DEMO, only: ['createLink.clickCount:max-safe'] }).expect(200);
    expect(set.body).toEqual({ seed: 9, apiKey: DEMO, only: ['createLink.clickCount:max-safe'], except: null });
    expect((await app.request.post('/links').set('x-api-key', DEMO).send(valid).expect(201)).body.clickCount).toBe(Number.MAX_SAFE_INTEGER);
    expect((await app.request.post('/links').set('x-api-key', OTHER).send(valid).expect(201)).body.clickCount).toBe(0);
    expect((await app.request.get('/__admin/variety').expect(200)).body).toEqual({ global: null, byKey: { [DEMO]: set.body } });
    await app.request.delete(`/__admin/variety?apiKey=${DEMO}`).expect(204);
    expect((await app.request.post('/links').set('x-api-key', DEMO).send(valid).expect(201)).body.clickCount).toBe(0);
    expect((await app.request.get('/__admin/variety').expect(200)).body).toEqual({ global: null, byKey: {} });
  });

  it('refuses an unknown dimension with a guess, and lists every dimension', async () => {
    const app = await createTestApp();
    const res = await app.request.put('/__admin/variety').send({ seed: 1, only: ['createLink.clickCount:absnt'] }).expect(400);
    expect(res.body.errorDescription).toContain("did you mean 'createLink.clickCount:absent'?");
    const { body } = await app.request.get('/__admin/variety/dimensions').expect(200);
    expect(body.dimensions).toContainEqual({ name: 'updateLink.createdAt:offset', description: expect.stringContaining('offset') });
  });

  it('for one request with x-mock-variety; a bad seed is the mock refusing its own control', async () => {
    const app = await createTestApp();
    await app.request.post('/links').set('x-api-key', DEMO).set('x-mock-variety', '12').send(valid).expect(201);
    expect((await lastEntry(app))?.variety).toMatchObject({ seed: 12 });
    const refused = await app.request.post('/links').set('x-api-key', DEMO).set('x-mock-variety', 'soon').send(valid).expect(400);
    expect(refused.body.errorDescription).toContain('x-mock-variety');
    expect((await lastEntry(app))?.verdict).toBe('mock-control');
  });

  it('lets a page in a browser send x-mock-variety (CORS)', async () => {
    const app = await createTestApp();
    const res = await app.request.options('/links').set('origin', 'https://app.example').set('access-control-request-method', 'POST').set('access-control-request-headers', 'x-api-key, x-mock-variety').expect(204);
    expect(res.headers['access-control-allow-headers']).toContain('x-mock-variety');
  });

  it('varies errors answered before the validator\'s response hook too (a 401, a refused body)', async () => {
    const app = await createTestApp({ variety: { seed: 3, only: ['createLink.errorDescription:longest'] } });
    const res = await app.request.post('/links').send(valid).expect(401);
    expect([...(res.body.errorDescription as string)]).toHaveLength(4096);
    const refused = await app.request.post('/links').set('x-api-key', DEMO).send({ ...valid, slug: 'a b' }).expect(400);
    expect(refused.body.errorDescription).toMatch(/^request body: 'slug' .* — The quick brown fox/);
    expect((await lastEntry(app))?.variety).toEqual({ seed: 3, dimensions: ['createLink.errorDescription:longest'] });
  });

  it('varies the envelope: no charset, chunked framing, gzip when asked for', async () => {
    const app = await createTestApp({ variety: { seed: 3, only: ['createLink.content-type:no-charset', 'createLink.framing:chunked', 'createLink.encoding:gzip'] } });
    const res = await app.request.post('/links').set('x-api-key', DEMO).set('accept-encoding', 'gzip').send(valid).expect(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body).toHaveProperty('slug');
    const plain = await app.request.post('/links').set('x-api-key', DEMO).set('accept-encoding', 'identity').send(valid).expect(201);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('gives a link created under variety an id of another shape, and keeps it', async () => {
    const app = await createTestApp({ variety: { seed: 3, only: ['createLink.id:uuid'] } });
    const created = await app.request.post('/links').set('x-api-key', DEMO).send(valid).expect(201);
    expect(created.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const updated = await app.request.put(`/links/${created.body.id}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/b' }).expect(200);
    expect(updated.body.id).toBe(created.body.id);
    expect((await lastEntry(app))?.variety).toEqual({ seed: 3, dimensions: [] });
  });

  it('answers a variant the contract refuses with a 500, before and after the validator', async () => {
    const app = await createTestApp({ variety: { seed: 3, only: ['createLink.title:longest', 'createLink.errorDescription:longest'] } });
    for (const dimension of app.variety.catalogue) if (dimension.kind === 'body' && dimension.operationId === 'createLink') dimension.variant = { ...dimension.variant, apply: () => 42 };
    const created = await app.request.post('/links').set('x-api-key', DEMO).send(valid).expect(500);
    expect(created.body.errorDescription).toContain('would break the contract');
    expect((await lastEntry(app))?.verdict).toBe('contract-violation');
    const refused = await app.request.post('/links').send(valid).expect(500);
    expect(refused.body.errorDescription).toContain('would break the contract');
    expect((await lastEntry(app))?.verdict).toBe('contract-violation');
  });
});
