// The console and the admin API cannot be framed (issue 37 A6): clicks inside a frame are
// same-origin, so a page that framed /__admin/ could switch scenarios or restore a snapshot. Every
// answer under /__admin, the console's files and every error included, says no frame may hold it.
import { describe, expect, test } from 'vitest';
import type { Response } from 'supertest';
import { withFrameAncestors } from '../../src/admin/frame-guard.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

function expectUnframeable(res: Response): void {
  expect(res.headers['x-frame-options']).toBe('DENY');
  const policy = String(res.headers['content-security-policy'] ?? '');
  expect(policy.split(';').map((part) => part.trim())).toContain("frame-ancestors 'none'");
}

describe('answers under /__admin cannot be framed', () => {
  test.each([
    ['the console', '/__admin/', 200],
    ['a console file', '/__admin/console.js', 200],
    ['the console without its slash', '/__admin', 200],
    ['the admin contract', '/__admin/openapi.yaml', 200],
    ['health', '/__admin/health', 200],
    ['the journal', '/__admin/requests', 200],
    ['an unknown admin route (404)', '/__admin/nowhere', 404],
    ['a bad query (400)', '/__admin/requests?limit=zero', 400],
  ])('%s: GET %s', async (_name, path, status) => {
    const t = await createTestApp();
    const res = await t.request.get(path).redirects(0);
    expect([status, 301, 308]).toContain(res.status);
    expectUnframeable(res);
  });

  test('a policy set by a later step is merged, not replaced: /__admin redirects with its own', async () => {
    const t = await createTestApp();
    const res = await t.request.get('/__admin').redirects(0).expect(301);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  test.each([
    ["default-src 'none'", "default-src 'none'; frame-ancestors 'none'"],
    ["default-src 'self'; frame-ancestors https://a.test;", "default-src 'self'; frame-ancestors 'none'"],
    ['', "frame-ancestors 'none'"],
  ])('withFrameAncestors(%j) is %j', (policy, merged) => {
    expect(withFrameAncestors(policy)).toBe(merged);
  });

  test('a 401 without the admin token, and a 403 for a foreign Host or Origin', async () => {
    const guarded = await createTestApp({ adminToken: 's3cret' });
    const missing = await guarded.request.get('/__admin/health').expect(401);
    expectUnframeable(missing);
    const open = await createTestApp();
    expectUnframeable(await open.request.get('/__admin/health').set('host', 'evil.example').expect(403));
    expectUnframeable(await open.request.post('/__admin/reset').set('origin', 'https://evil.example').expect(403));
  });

  test('a 400 for a body the admin API cannot read', async () => {
    const t = await createTestApp();
    const res = await t.request.put('/__admin/scenario').set('content-type', 'application/json').send('{"name": ').expect(400);
    expectUnframeable(res);
  });

  test('the API itself is unchanged: browsers call it cross-origin and it sends no frame policy', async () => {
    const t = await createTestApp();
    const res = await t.request.post('/links').set('x-api-key', DEMO).send({ tags: [], destinationUrl: 'https://e.test/', domain: 'short.test' }).expect(201);
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['content-security-policy']).toBeUndefined();
  });
});
