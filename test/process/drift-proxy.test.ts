// The drift report end to end: a mock started as a validating proxy (startMock with `proxy`, the
// CLI's code path for --proxy) in front of a deliberately broken server of the catalogue, a few
// requests through it, then `shortlink-mock drift` exits 1 and names each violation once, on the
// right side, with its count and example; its --junit file says the same to CI.
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runDriftCommand } from '../../src/commands/drift.js';
import { startMock, type RunningMock } from '../../src/index.js';
import { BROKEN_SERVERS } from '../broken-servers/catalogue.js';

const dir = mkdtempSync(join(tmpdir(), 'drift-proxy-'));
let upstream: Server;
let proxy: RunningMock;

beforeAll(async () => {
  const broken = BROKEN_SERVERS.find((server) => server.name === 'clickCount-string');
  if (!broken) throw new Error('the broken server clickCount-string is missing from the catalogue');
  upstream = broken.app().listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  // Its log lines (one per violation) stay out of the test's output.
  proxy = await startMock({ proxy: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, log: () => undefined });
});

afterAll(async () => {
  await proxy?.stop();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const post = (body: object) =>
  fetch(`${proxy.url}/links`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'demo-key' }, body: JSON.stringify(body) });

async function drift(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDriftCommand(['--base-url', proxy.url, ...args], {}, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

it('names the upstream breaking the contract (response side) and the client breaking it (request side), once each, and exits 1', async () => {
  expect((await drift([])).code).toBe(0);
  for (let i = 0; i < 3; i++) expect((await post({ destinationUrl: `https://example.com/${i}`, domain: 'short.test', tags: [] })).status).toBe(201);
  expect((await post({ domain: 'short.test', tags: [] })).status).toBe(400);

  const junit = join(dir, 'drift.xml');
  const { code, out, err } = await drift(['--junit', junit]);
  expect({ code, err }).toEqual({ code: 1, err: '' });
  expect(out).toMatch(/^Contract drift seen by the mock at http:\/\/127\.0\.0\.1:\d+: 2 distinct violations$/m);
  const created = out.indexOf('createLink (POST), answered 201');
  const refused = out.indexOf('createLink (POST), answered 400');
  expect(created).toBeGreaterThan(0);
  expect(refused).toBeGreaterThan(created);
  const createdPart = out.slice(created, refused);
  expect(createdPart).toMatch(/^ {2}response: .*clickCount/m);
  expect(createdPart).toMatch(/^ {4}3 exchanges, first /m);
  expect(createdPart).toMatch(/^ {4}example: POST \/links at \S+, key demo\*+, answered 201$/m);
  expect(createdPart).toContain('"clickCount":"0"');
  expect(out.slice(refused)).toMatch(/^ {2}request: .*destinationUrl/m);
  expect(out).not.toContain('demo-key');

  const xml = readFileSync(junit, 'utf8');
  expect(xml).toContain('tests="2" failures="2"');
  expect(xml).toMatch(/<testcase classname="drift\.createLink\.POST\.201" name="response: [^"]*clickCount/);
});
