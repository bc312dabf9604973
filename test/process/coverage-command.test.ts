// `shortlink-mock coverage`: the coverage of a running mock as a table, per key, with what it
// has never met; against an in-process mock on a free port.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { coverageHelpText, formatCoverage, runCoverageCommand } from '../../src/commands/coverage.js';
import { holdRefusingPort } from '../helpers/refusing-port.js';
import { createTestApp, DEMO, LIMITED } from '../helpers/test-app.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function listening(options: Parameters<typeof createTestApp>[0] = {}) {
  const t = await createTestApp(options);
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server?.once('listening', resolve));
  return { t, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs the command and keeps what it printed, stdout and stderr apart. */
async function run(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCoverageCommand(args, env, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n'), errLines: err.flatMap((text) => text.split('\n')) };
}

const create = { destinationUrl: 'https://example.com', domain: 'short.test', tags: [] };

describe('shortlink-mock coverage', () => {
  it('prints per key what was met and what never was', async () => {
    const { t, base } = await listening();
    await t.request.post('/links').set('x-api-key', DEMO).send(create).expect(201);
    await t.request.delete('/links/nope').set('x-api-key', DEMO).expect(404);
    await t.request.post('/links').set('x-api-key', LIMITED).send(create).expect(400);
    const { code, out, err } = await run(['--base-url', base]);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toMatch(/createLink 201\s+×1\s+never/);
    expect(out).toMatch(/createLink 400 LINK_LIMIT_REACHED\s+never\s+×1/);
    expect(out).toMatch(/deleteLink 404\s+×1\s+never/);
    expect(out).toMatch(/demo\*+: never met 10 of 12: .*createLink 400 LINK_LIMIT_REACHED/);
    expect(out).not.toContain('demo-key');
    expect(out).not.toContain('no or unknown key');
  });

  it('puts requests without a key and with unknown keys in one column that only the 401s can fill', async () => {
    const { t, base } = await listening();
    await t.request.post('/links').set('x-api-key', DEMO).send(create).expect(201);
    await t.request.post('/links').send(create).expect(401);
    for (const key of ['key-aaaaa1', 'key-aaaaa2', 'key-aaaaa3']) await t.request.delete('/links/nope').set('x-api-key', key).expect(401);
    const { code, out } = await run(['--base-url', base]);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines.find((line) => line.startsWith('outcome'))?.split(/\s{2,}/)).toEqual(['outcome', 'demo****', 'no or unknown key']);
    expect(out).toMatch(/^createLink 201\s+×1\s+-$/m);
    expect(out).toMatch(/^createLink 401\s+never\s+×1$/m);
    expect(out).toMatch(/^deleteLink 401\s+never\s+×3$/m);
    expect(out).toMatch(/^updateLink 401\s+never\s+never$/m);
    expect(out).toMatch(/^updateLink 200\s+never\s+-$/m);
    expect(out).toContain('no or unknown key (1 request without a key, 3 requests with a key that names no account): never met 1 of the 3 401s they can get: updateLink 401');
    expect(out).not.toContain('key-aaaaa');
  });

  it('--account with a key that sent nothing says so', async () => {
    const { t, base } = await listening();
    await t.request.post('/links').set('x-api-key', DEMO).send(create).expect(201);
    const { code, out } = await run(['--base-url', base, '--account', 'nobody']);
    expect(code).toBe(0);
    expect(out).toMatch(/^No API requests with the key 'nobody' seen yet\./);
    expect(out).not.toContain('never');
    expect((await run(['--base-url', base, '--account', DEMO])).out).toMatch(/^createLink 201\s+×1$/m);
  });

  it('takes the admin token from --admin-token or MOCK_ADMIN_TOKEN, and explains a refusal in words', async () => {
    const { base } = await listening({ adminToken: 's3cret' });
    const missing = await run(['--base-url', base]);
    expect(missing.code).toBe(1);
    expect(missing.errLines).toEqual([`shortlink-mock coverage: the mock at ${base} needs its admin token (it was started with --admin-token): pass --admin-token TOKEN or set MOCK_ADMIN_TOKEN`]);
    const wrongFlag = await run(['--base-url', base, '--admin-token', 'nope']);
    expect(wrongFlag.code).toBe(1);
    expect(wrongFlag.errLines).toEqual([`shortlink-mock coverage: the mock at ${base} refused the admin token from --admin-token: it is not the token the mock was started with`]);
    const wrongEnv = await run(['--base-url', base], { MOCK_ADMIN_TOKEN: 'nope' });
    expect(wrongEnv.err).toContain('refused the admin token from MOCK_ADMIN_TOKEN');
    expect(await run(['--base-url', base], { MOCK_ADMIN_TOKEN: 's3cret' })).toMatchObject({ code: 0, err: '', out: expect.stringMatching(/nothing is covered/) });
    expect((await run(['--base-url', base, '--admin-token', 's3cret'], { MOCK_ADMIN_TOKEN: 'nope' })).code).toBe(0);
    for (const result of [missing, wrongFlag, wrongEnv]) expect(result.out + result.err).not.toContain('{');
  });

  it('takes the base URL from MOCK_BASE_URL', async () => {
    const { base } = await listening();
    expect(await run([], { MOCK_BASE_URL: base })).toMatchObject({ code: 0, out: expect.stringMatching(/nothing is covered/) });
  });

  it('--help lists every flag with its default and its environment variable', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toBe(coverageHelpText());
    expect(out).toMatch(/--base-url URL\s+the running mock \(default http:\/\/127\.0\.0\.1:4010\) \[env MOCK_BASE_URL\]/);
    expect(out).toMatch(/--account API_KEY\s+only this API key \(default: every key that sent a request\)/);
    expect(out).toMatch(/--admin-token TOKEN\s+.*\(default none\) \[env MOCK_ADMIN_TOKEN, as for the mock\]/);
  });

  it.each([
    [['--bogus'], 2, /unknown option '--bogus'/],
    [['--base-url', 'ftp://127.0.0.1'], 2, /--base-url must be an http\(s\) URL/],
    [['--base-url', 'not a url'], 2, /--base-url must be an http\(s\) URL/],
    [['--admin-token', ''], 2, /--admin-token must not be empty/],
  ])('exits %j → %i with one line on stderr', async (args, code, message) => {
    const result = await run(args);
    expect(result.code).toBe(code);
    expect(result.out).toBe('');
    expect(result.errLines).toHaveLength(1);
    expect(result.err).toMatch(message);
  });

  it('a mock that does not answer is one line on stderr with the reason, exit 1', async () => {
    const refusing = await holdRefusingPort();
    onTestFinished(() => refusing.release());
    const { port } = refusing;
    const result = await run(['--base-url', `http://127.0.0.1:${port}`]);
    expect(result).toMatchObject({ code: 1, out: '', errLines: [`shortlink-mock coverage: cannot reach http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}: is a mock running there? Give its address with --base-url URL or MOCK_BASE_URL`] });
  });

  it('an empty MOCK_ADMIN_TOKEN is a usage error naming the variable', async () => {
    expect(await run([], { MOCK_ADMIN_TOKEN: ' ' })).toMatchObject({ code: 2, err: expect.stringMatching(/^shortlink-mock coverage: MOCK_ADMIN_TOKEN must not be empty/) });
  });

  it('says so when nothing was seen', () => {
    expect(formatCoverage({ documented: [], accounts: [] })).toMatch(/nothing is covered/);
  });
});
