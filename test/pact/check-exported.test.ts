// The two halves of issue 15's Pact support agree: a pact that `pact export` writes from a mock's
// journal passes `pact check` against the same openapi.yaml, every interaction of it, with no note.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { runPactCheck } from '../../src/pact/check-command.js';
import { runPactExport } from '../../src/pact/export-command.js';

const dir = mkdtempSync(join(tmpdir(), 'slm-pact-exported-'));
const pactFile = join(dir, 'web-app.json');
let mock: RunningMock;

/** A client's run: each documented outcome the fixtures reach without a scenario. */
async function exercise(url: string): Promise<void> {
  const send = async (method: string, path: string, apiKey: string | undefined, body?: object): Promise<{ status: number; json: unknown }> => {
    const headers = { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...(body ? { 'content-type': 'application/json' } : {}) };
    const response = await fetch(url + path, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: response.status, json: response.status === 204 ? undefined : await response.json() };
  };
  const link = { destinationUrl: 'https://example.com/autumn', domain: 'short.test', tags: [{ name: 'autumn' }] };
  const created = await send('POST', '/links', 'demo-key', link);
  const id = (created.json as { id: string }).id;
  const statuses = [
    created.status,
    (await send('PUT', `/links/${id}`, 'demo-key', { tags: [] })).status,
    (await send('PUT', '/links/lnk_nowhere', 'demo-key', { tags: [] })).status,
    (await send('DELETE', `/links/${id}`, 'demo-key')).status,
    (await send('DELETE', `/links/${id}`, 'demo-key')).status,
    (await send('POST', '/links', 'demo-key', { ...link, colour: 'red' })).status,
    (await send('POST', '/links', 'demo-key', { ...link, domain: 'nowhere.test' })).status,
    (await send('POST', '/links', 'limited-key', link)).status,
    (await send('DELETE', `/links/${id}`, undefined)).status,
  ];
  expect(statuses).toEqual([201, 200, 404, 204, 404, 400, 404, 400, 401]);
}

beforeAll(async () => {
  mock = await startMock({ log: () => undefined });
  await exercise(mock.url);
  const quiet = { out: () => undefined, err: (text: string) => console.error(text) };
  expect(await runPactExport(['--consumer', 'web-app', '--base-url', mock.url, '--out', pactFile], {}, quiet)).toBe(0);
});
afterAll(async () => {
  await mock?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('an exported pact passes pact check, every interaction ok and no note', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runPactCheck([pactFile], {}, { out: (text) => out.push(text), err: (text) => err.push(text) });
  const report = out.join('\n');
  expect({ code, err, report }).toMatchObject({ code: 0, err: [] });
  const lines = report.split('\n').filter((line) => /^ {2}(ok|FAIL)/.test(line));
  const interactions = (JSON.parse(readFileSync(pactFile, 'utf8')) as { interactions: unknown[] }).interactions;
  expect(lines).toHaveLength(interactions.length);
  expect(interactions.length).toBeGreaterThanOrEqual(8);
  expect(lines.every((line) => line.startsWith('  ok  '))).toBe(true);
  expect(report).not.toContain('note:');
});

it('round trip of a journal that held ?constructor=1: the export passes pact check, the names noted as undeclared', async () => {
  const other = await startMock({ log: () => undefined });
  const file = join(dir, 'object-member-names.json');
  try {
    const headers = { 'x-api-key': 'demo-key', 'content-type': 'application/json' };
    const created = await fetch(`${other.url}/links`, { method: 'POST', headers, body: JSON.stringify({ destinationUrl: 'https://example.com/q', domain: 'short.test', tags: [] }) });
    const { id } = (await created.json()) as { id: string };
    const response = await fetch(`${other.url}/links/${id}?constructor=1&__proto__=2&toString=3&foo=4`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key' } });
    expect(response.status).toBe(204);
    const quiet = { out: () => undefined, err: (text: string) => console.error(text) };
    expect(await runPactExport(['--consumer', 'web-app', '--base-url', other.url, '--out', file], {}, quiet)).toBe(0);
  } finally {
    await other.stop();
  }
  const out: string[] = [];
  const err: string[] = [];
  const code = await runPactCheck([file], {}, { out: (text) => out.push(text), err: (text) => err.push(text) });
  const report = out.join('\n');
  expect({ code, err }, report).toEqual({ code: 0, err: [] });
  expect(report.match(/^ {2}ok {2}/gm), report).toHaveLength(2);
  expect(report).toContain('All 2 interactions keep the contract.');
  // Each undeclared name a note: the engine's for foo, the mock's own for the names the engine misreads.
  for (const name of ['constructor', '__proto__', 'toString', 'foo']) expect(report).toMatch(new RegExp(`note: request query ${name}: .*not defined`));
});
