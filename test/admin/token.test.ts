// Safe by default: the admin API is open on loopback; with --admin-token every admin route but its
// document needs x-admin-token; off loopback the CLI refuses to start without a token.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLoopbackHost, tokenMatches } from '../../src/admin/admin-token.js';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

const TOKEN = 's3cret';

describe('createTestApp({ adminToken })', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ adminToken: TOKEN });
  });

  const routes = [
    ['GET', '/__admin/health', '/__admin/health'],
    ['POST', '/__admin/reset', '/__admin/reset'],
    ['GET', '/__admin/scenarios', '/__admin/scenarios'],
    ['GET', '/__admin/requests', '/__admin/requests'],
    ['DELETE', '/__admin/requests', '/__admin/requests'],
    ['GET', '/__admin/requests/stream', '/__admin/requests/stream'],
    ['GET', '/__admin/coverage', '/__admin/coverage'],
    ['GET', '/__admin/accounts', '/__admin/accounts'],
    ['GET', '/__admin/links?account=demo-key', '/__admin/links'],
    ['GET', '/__admin/snapshots', '/__admin/snapshots'],
    ['POST', '/__admin/snapshots/s1', '/__admin/snapshots/{name}'],
    ['DELETE', '/__admin/snapshots/s1', '/__admin/snapshots/{name}'],
    ['POST', '/__admin/snapshots/s1/restore', '/__admin/snapshots/{name}/restore'],
  ] as const;

  const send = (method: 'GET' | 'POST' | 'DELETE', path: string) =>
    method === 'GET' ? t.request.get(path) : method === 'POST' ? t.request.post(path) : t.request.delete(path);

  it.each(routes)('%s %s without the header is a 401 Error object', async (method, path, template) => {
    const res = await send(method, path);
    expectAdminResponse(res, method, template);
    expectError(res, 401, { mentions: /x-admin-token/ });
  });

  const MISSING = 'the admin API needs the x-admin-token header (the server was started with --admin-token)';
  const WRONG = 'the x-admin-token header does not match the token the server was started with (--admin-token)';

  it.each([
    ['a wrong token', 'wrong'],
    ['a token with one character more', `${TOKEN}x`],
    ['the token in another case', TOKEN.toUpperCase()],
  ])('%s is a 401 that says the token is wrong', async (_what, token) => {
    const res = await t.request.get('/__admin/health').set('x-admin-token', token);
    expectAdminResponse(res, 'GET', '/__admin/health');
    expectError(res, 401);
    expect(res.body).toEqual({ errorDescription: WRONG });
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
  ])('%s is a 401 that says the token is missing', async (_what, token) => {
    const res = await (token === undefined ? t.request.get('/__admin/health') : t.request.get('/__admin/health').set('x-admin-token', token));
    expectAdminResponse(res, 'GET', '/__admin/health');
    expectError(res, 401);
    expect(res.body).toEqual({ errorDescription: MISSING });
  });

  it('the bodies of guarded writes are not even looked at', async () => {
    const res = await t.request.put('/__admin/accounts/demo-key/limit').send({ linkLimit: 0 });
    expectAdminResponse(res, 'PUT', '/__admin/accounts/{apiKey}/limit');
    expect(res.status).toBe(401);
    expect((await t.accountByKey(DEMO))?.linkLimit).toBe(1_000_000);
  });

  it('the right token opens every route', async () => {
    const res = await t.request.get('/__admin/health').set('x-admin-token', TOKEN);
    expectAdminResponse(res, 'GET', '/__admin/health');
    expect(res.status).toBe(200);
    const limit = await t.request.put('/__admin/accounts/demo-key/limit').set('x-admin-token', TOKEN).send({ linkLimit: 50 });
    expectAdminResponse(limit, 'PUT', '/__admin/accounts/{apiKey}/limit');
    expect(limit.status).toBe(200);
    const saved = await t.request.post('/__admin/snapshots/s1').set('x-admin-token', TOKEN);
    expectAdminResponse(saved, 'POST', '/__admin/snapshots/{name}');
    expect(saved.status).toBe(201);
  });

  it('GET /__admin/openapi.yaml needs no token', async () => {
    const res = await t.request.get('/__admin/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.text).toContain('x-admin-token');
  });

  it('the API, its contract, the docs and short-URL visits are unaffected', async () => {
    const created = await t.request.post('/links').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com', domain: 'short.test', slug: 'tok', tags: [] });
    expectLink(created, 201);
    expect((await t.request.get('/__r/short.test/tok')).status).toBe(302);
    expect((await t.request.get('/openapi.yaml')).status).toBe(200);
    expect((await t.request.get('/docs')).status).toBe(200);
  });
});

describe('tokenMatches and isLoopbackHost', () => {
  it.each([
    [TOKEN, TOKEN, true],
    [TOKEN, 's3cre', false],
    [TOKEN, `${TOKEN} `, false],
    [TOKEN, 'S3CRET', false],
    [TOKEN, '', false],
    [TOKEN, undefined, false],
    ['a-much-longer-token-than-the-given-one', 'a', false],
  ])('tokenMatches(%j, %j) is %s', (expected, given, matches) => {
    expect(tokenMatches(expected, given)).toBe(matches);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['[::1]', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.2', false],
    ['10.0.0.1', false],
    ['example.com', false],
    ['127.0.0.1.example.com', false],
    ['localhost.example.com', false],
  ])('isLoopbackHost(%s) is %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('the CLI', () => {
  let dir: string;
  let running: CliProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slm-admin-token-'));
  });
  afterEach(async () => {
    await running?.stop('SIGKILL');
    running = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [['--host', '0.0.0.0', '--port', '0']],
    [['--host', '192.168.1.2', '--port', '0', '--db', ':memory:']],
  ])('refuses %j without --admin-token: one line, exit code 2', async (args) => {
    const { code, stdout, stderr } = await runCli(args, dir);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/--admin-token/);
  });

  it('starts off loopback with --admin-token, guards the admin API, and stops cleanly', async () => {
    running = await startCli(['--host', '0.0.0.0', '--admin-token', 'x', '--db', ':memory:', '--quiet'], dir);
    const port = new URL(running.url).port;
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/__admin/health`)).status).toBe(401);
    const health = await fetch(`${base}/__admin/health`, { headers: { 'x-admin-token': 'x' } });
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    expect((await fetch(`${base}/openapi.yaml`)).status).toBe(200);
    expect(await running.stop('SIGTERM')).toBe(0);
    running = undefined;
  });
});
