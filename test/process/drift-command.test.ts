// `shortlink-mock drift`: the drift report of a running mock, as text and JUnit XML, and its exit
// codes (0 none, 1 some or unreachable or refused, 2 a bad flag); against an in-process mock on a
// free port whose createLink exchanges carry the violations a proxy would leave (res.locals).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Violation } from '../../src/core/journal.js';
import { driftHelpText, runDriftCommand } from '../../src/commands/drift.js';
import { VIOLATIONS } from '../../src/http/record-requests.js';
import { holdRefusingPort } from '../helpers/refusing-port.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

const MISSING_ID: Violation = { side: 'response', rule: 'response body: must have required property id', detail: 'body has no id' };
const BODY = { destinationUrl: 'https://example.com/drift?a=1&b=2', domain: 'short.test', tags: [] };
const dir = mkdtempSync(join(tmpdir(), 'drift-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A mock on a free port whose createLink answers 400 with the violations of `broken` (none: kept). */
async function mockWith(broken: Violation[], adminToken?: string): Promise<{ t: TestApp; base: string }> {
  const t = await createTestApp({
    ...(adminToken ? { adminToken } : {}),
    handlers: {
      createLink: (_req, res) => {
        if (broken.length > 0) res.locals[VIOLATIONS] = broken;
        res.status(400).json({ errorDescription: 'answered by the test' });
      },
    },
  });
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server?.once('listening', resolve));
  return { t, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function drift(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDriftCommand(args, env, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('shortlink-mock drift', () => {
  it('exits 0 and says so when no violation was seen; --junit holds one passing testcase', async () => {
    const { t, base } = await mockWith([]);
    await t.request.post('/links').set('x-api-key', DEMO).send(BODY).expect(400);
    const junit = join(dir, 'none', 'drift.xml');
    const { code, out, err } = await drift(['--base-url', base, '--junit', junit]);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toContain(`No contract violations seen by the mock at ${base}.`);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('tests="1" failures="0"');
    expect(xml).toContain('<testcase classname="drift" name="no contract violations seen" time="0.000"/>');
  });

  it('exits 1 and prints each distinct violation under its operation and status, with its example (key masked)', async () => {
    const { t, base } = await mockWith([MISSING_ID]);
    for (let i = 0; i < 2; i++) await t.request.post('/links').set('x-api-key', DEMO).send(BODY).expect(400);
    const { code, out } = await drift(['--base-url', base]);
    expect(code).toBe(1);
    const lines = out.split('\n');
    expect(lines[0]).toBe(`Contract drift seen by the mock at ${base}: 1 distinct violation`);
    expect(lines).toContain('createLink (POST), answered 400');
    expect(lines).toContain(`  response: ${MISSING_ID.rule}`);
    expect(out).toMatch(/^ {4}2 exchanges, first \S+Z, last \S+Z$/m);
    expect(out).toMatch(/^ {4}example: POST \/links at \S+Z, key demo\*+, answered 400$/m);
    expect(lines).toContain('    detail: body has no id');
    expect(lines).toContain(`    request body: ${JSON.stringify(BODY)}`);
    expect(lines).toContain('    response body: {"errorDescription":"answered by the test"}');
    expect(out).not.toContain(DEMO);
  });

  it('--junit writes one failing testcase per distinct violation, escaped', async () => {
    const { t, base } = await mockWith([MISSING_ID, { side: 'request', rule: 'request body: <tags> & "quotes"' }]);
    await t.request.post('/links').set('x-api-key', DEMO).send(BODY).expect(400);
    const junit = join(dir, 'some.xml');
    const { code, out } = await drift(['--base-url', base, '--junit', junit]);
    expect(code).toBe(1);
    expect(out).toContain(`JUnit report written to ${junit}`);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="shortlink-mock drift: http:\/\/127\.0\.0\.1:\d+" tests="2" failures="2"/);
    expect(xml).toContain(`<testcase classname="drift.createLink.POST.400" name="response: ${MISSING_ID.rule}" time="0.000">`);
    expect(xml).toContain('name="request: request body: &lt;tags&gt; &amp; &quot;quotes&quot;"');
    expect(xml).toContain('type="ContractViolation">createLink (POST), answered 400\n1 exchange, first ');
    expect(xml).toContain('request body: {"destinationUrl":"https://example.com/drift?a=1&amp;b=2"');
    expect(xml.match(/<failure /g)).toHaveLength(2);
  });

  // Issue 25 item 5: a client suite that tests its 400 paths on purpose must not fail a gate on the upstream.
  it('--side response ignores the client\'s violations: exit 0, and the JUnit file says which side it judged', async () => {
    const { t, base } = await mockWith([{ side: 'request', rule: 'request body: unknown field' }]);
    await t.request.post('/links').set('x-api-key', DEMO).send(BODY).expect(400);
    const junit = join(dir, 'side.xml');
    const upstreamOnly = await drift(['--base-url', base, '--side', 'response', '--junit', junit]);
    expect(upstreamOnly.code).toBe(0);
    expect(upstreamOnly.out).toContain(`No response-side contract violations seen by the mock at ${base}.`);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain(`<testsuites name="shortlink-mock drift: ${base} (side: response)" tests="1" failures="0"`);
    expect(xml).toContain('<property name="side" value="response"/>');
    expect(xml).toContain('<testcase classname="drift" name="no response-side contract violations seen" time="0.000"/>');
    const both = await drift(['--base-url', base], {});
    expect(both.code).toBe(1);
    const request = await drift(['--base-url', base], { MOCK_DRIFT_SIDE: 'request' });
    expect(request.code).toBe(1);
    expect(request.out.split('\n')[0]).toBe(`Contract drift seen by the mock at ${base}, request side: 1 distinct violation`);
  });

  it('exits 1 with one line when the mock refuses the admin token; takes it and the URL from the environment', async () => {
    const { base } = await mockWith([], 's3cret');
    const refused = await drift(['--base-url', base]);
    expect(refused).toMatchObject({ code: 1, out: '' });
    expect(refused.err).toBe(`shortlink-mock drift: the mock at ${base} needs its admin token (it was started with --admin-token): pass --admin-token TOKEN or set MOCK_ADMIN_TOKEN`);
    expect((await drift([], { MOCK_BASE_URL: base, MOCK_ADMIN_TOKEN: 's3cret' })).code).toBe(0);
  });

  it('exits 1 with one line naming the reason when nothing answers', async () => {
    const refusing = await holdRefusingPort();
    onTestFinished(() => refusing.release());
    const { port } = refusing;
    const result = await drift(['--base-url', `http://127.0.0.1:${port}`]);
    expect(result).toEqual({ code: 1, out: '', err: `shortlink-mock drift: cannot reach http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}: is a mock running there? Give its address with --base-url URL or MOCK_BASE_URL` });
  });

  it.each([
    [['--nope'], "unknown option '--nope'"],
    [['--base-url', 'ftp://x'], "--base-url must be an http(s) URL such as http://127.0.0.1:4010, got 'ftp://x'"],
    [['--junit', ''], '--junit must not be empty'],
    [['--junit', dir], `cannot write --junit ${dir}: ${dir} is a directory`],
    [['--side', 'upstream'], "--side must be 'response', 'request' or 'both', got 'upstream'"],
  ])('exits 2 on a bad flag: %j', async (args, message) => {
    const { code, out, err } = await drift(args);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toContain(message);
    expect(err).toMatch(/\(see shortlink-mock drift --help\)$/);
  });

  it('--help prints the usage and exits 0', async () => {
    expect(await drift(['--help'])).toEqual({ code: 0, out: driftHelpText(), err: '' });
    expect(driftHelpText()).toMatch(/^Usage: shortlink-mock drift \[--base-url URL\] \[--admin-token TOKEN\] \[--side response\|request\|both\] \[--junit FILE\]/);
  });
});
