// The admin API reads bodies of at most ADMIN_BODY_LIMIT (64 KiB): its bodies are a scenario name,
// a variety setting, a provider state; the API's 1 MiB would let any page of this machine make the
// mock parse 16 times more per call. Past it: a 400 naming the limit actually applied, nothing changed.
import { describe, expect, test } from 'vitest';
import { expectError } from '../helpers/contract-assert.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

describe('the size of a request body', () => {
  test('a 100 KiB admin body is a 400 naming the 64 KiB limit, and changes nothing', async () => {
    const t = await createTestApp();
    const body = JSON.stringify({ name: 'x'.repeat(100 * 1024) });
    const res = await t.request.put('/__admin/scenario').set('content-type', 'application/json').send(body);
    expectError(res, 400);
    expect(res.body).toEqual({ errorDescription: 'request body is over the 64 KiB limit' });
    expect((await t.request.get('/__admin/scenario').expect(200)).body).toMatchObject({ active: null });
  });

  test('a body just under 64 KiB is read (the admin contract then judges it)', async () => {
    const t = await createTestApp();
    const body = JSON.stringify({ name: 'x'.repeat(64 * 1024 - 20) });
    const res = await t.request.put('/__admin/scenario').set('content-type', 'application/json').send(body);
    expectError(res, 400);
    expect((res.body as { errorDescription: string }).errorDescription).toMatch(/^unknown scenario/);
  });

  test('the API says its own limit: 1 MiB', async () => {
    const t = await createTestApp();
    const body = JSON.stringify({ tags: [], destinationUrl: `https://e.test/${'x'.repeat(1100 * 1024)}`, domain: 'short.test' });
    const res = await t.request.post('/links').set('x-api-key', DEMO).set('content-type', 'application/json').send(body);
    expect(res.body).toEqual({ errorDescription: 'request body is over the 1 MiB limit' });
  });
});
