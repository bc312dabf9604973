// pact export from a validating proxy's journal (--proxy): the client's exchanges with a real
// upstream (here a second mock), whose keys the journal holds masked only. --api-key names the key;
// the pact then passes the Pact Verifier against a fresh mock, like one exported in mock mode.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Link } from '../../src/core/api-types.js';
import type { PactFile } from '../../src/pact/export-pact-v3.js';
import { runPactExport } from '../../src/pact/export-command.js';
import { startMock, type RunningMock } from '../../src/index.js';
import { verifyPact } from '../helpers/pact-verifier.js';

const dir = mkdtempSync(join(tmpdir(), 'pact-proxy-'));
const quiet = { log: () => undefined };
const io = () => ({ lines: [] as string[], out(text: string) { this.lines.push(text); }, err(text: string) { this.lines.push(text); } });
let upstream: RunningMock;
let proxy: RunningMock;

beforeAll(async () => {
  upstream = await startMock(quiet);
  proxy = await startMock({ ...quiet, proxy: upstream.url });
});
afterAll(async () => {
  await Promise.all([proxy?.stop(), upstream?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${proxy.url}${path}`, { method, headers: { 'x-api-key': 'demo-key', ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

it('exports the proxied exchanges of the key --api-key names, and the pact verifies against a fresh mock', async () => {
  const created = await send('POST', '/links', { destinationUrl: 'https://example.com/proxied', domain: 'short.test', tags: [{ name: 'proxied' }] });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as Link;
  expect((await send('PUT', `/links/${id}`, { tags: [] })).status).toBe(200);
  expect((await send('DELETE', `/links/${id}`)).status).toBe(204);

  const file = join(dir, 'proxied.json');
  const without = io();
  expect(await runPactExport(['--consumer', 'web', '--base-url', proxy.url, '--out', file], {}, without)).toBe(1);
  expect(without.lines.join('\n')).toMatch(/nothing to export[\s\S]*skipped 3: a masked API key .*--api-key/);
  expect(await runPactExport(['--consumer', 'web', '--api-key', 'demo-key', '--base-url', proxy.url, '--out', file], {}, io())).toBe(0);
  const pact = JSON.parse(readFileSync(file, 'utf8')) as PactFile;
  expect(pact.interactions.map((interaction) => [interaction.description, interaction.request.headers?.['x-api-key']])).toEqual([
    ['createLink answered 201', 'demo-key'],
    ['updateLink answered 200', 'demo-key'],
    ['deleteLink answered 204', 'demo-key'],
  ]);

  const fresh = await startMock(quiet);
  try {
    // Its report captured, shown only if it fails (test/helpers/pact-verifier.ts).
    const { verified, report } = await verifyPact({ provider: 'shortlink-api', providerBaseUrl: fresh.url, pactUrls: [file], providerStatesSetupUrl: `${fresh.url}/__admin/provider-states`, logLevel: 'error' });
    expect(verified, report).toBe(true);
  } finally {
    await fresh.stop();
  }
});
