// Issue 38, item 4: --watch with --contract FILE reloads FILE. An edit is read, checked and
// classified as at start and swapped in without a restart (the validator, /openapi.yaml,
// GET /__admin/contract, the new operations and Link fields), with one line saying what changed; an
// edit the mock cannot serve keeps the running contract and says why in one line. A request in
// flight finishes on the contract it started on. On the file store and on Redis (this file runs in
// both projects: the store comes from SHORTLINK_MOCK_TEST_STORE).
// No sleeps: each step waits for the log line with a bounded poll (test/helpers/eventually.ts).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { eventually } from '../helpers/eventually.js';
import { freshPrefix } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';
import { testStoreKind } from '../helpers/test-store.js';

const FIXTURES = resolve('test/fixtures/contracts');
const RELOAD_MS = 10_000;

let dir: string;
let file: string;
let mock: RunningMock | undefined;
let lines: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-contract-watch-'));
  file = join(dir, 'next.yaml');
  lines = [];
});
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The fixture `name` written over FILE, as an editor saves it. */
const edit = (name: string): void => copyFileSync(join(FIXTURES, name), file);

async function start(fixture: string, scenarios?: string): Promise<RunningMock> {
  edit(fixture);
  const store = testStoreKind() === 'redis' ? { db: sharedRedisUrl(), redisPrefix: freshPrefix() } : { db: join(dir, 'db.json') };
  mock = await startMock({ contract: file, watch: true, quiet: false, ...store, ...(scenarios ? { scenarios } : {}), log: (line) => lines.push(line) });
  return mock;
}

/** The lines about the contract's reloads, once there are `count` of them. */
async function contractLines(count: number): Promise<string[]> {
  const found = await eventually(async () => lines.filter((line) => line.startsWith('contract ')), (seen) => seen.length >= count, RELOAD_MS);
  expect(found, `waited for ${count} contract line(s); log: ${JSON.stringify(lines.slice(-5))}`).toHaveLength(count);
  return found;
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown>; generated: string | null }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-api-key': 'demo-key', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown>, generated: response.headers.get('x-mock-generated') };
}

interface Classes {
  version: string;
  operations: { operationId: string; served: string }[];
  fields: { name: string; of: string; served: string }[];
}

async function classes(base: string): Promise<Classes> {
  return (await (await fetch(`${base}/__admin/contract`)).json()) as Classes;
}

const served = (found: Classes): Record<string, string> => Object.fromEntries(found.operations.map((operation) => [operation.operationId, operation.served]));
const fieldsOf = (found: Classes): string[] => found.fields.map((field) => `${field.of}.${field.name}:${field.served}`).sort();
const NEW_LINK = { destinationUrl: 'https://example.com/watched', domain: 'short.test', tags: [] };

describe(`--watch reloads --contract FILE (${testStoreKind()} store)`, () => {
  it('an edit from one next version to another is served without a restart, and back', { timeout: 40_000 }, async () => {
    const { url } = await start('expires-at.yaml');
    expect(fieldsOf(await classes(url))).toContain('Link.expiresAt:generated');
    expect(served(await classes(url))['getLink']).toBeUndefined();
    const created = await call(url, 'POST', '/links', { ...NEW_LINK, expiresAt: '2030-01-01T00:00:00.000Z' });
    expect(created.status).toBe(201);
    expect(created.body['expiresAt']).toBe('2030-01-01T00:00:00.000Z');
    const id = String(created.body['id']);
    expect((await call(url, 'GET', `/links/${id}`)).status).toBe(405);

    edit('get-link.yaml');
    const [reloaded] = await contractLines(1);
    expect(reloaded).toBe(`contract reloaded: ${file}: version 0.0.3; getLink: from the store (new); Link.expiresAt: no longer in the file (was generated and stored); createLink.expiresAt: no longer in the file (was stored from the request); updateLink.expiresAt: no longer in the file (was stored from the request) (GET /__admin/contract)`);
    expect(served(await classes(url))['getLink']).toBe('store');
    expect(fieldsOf(await classes(url))).toEqual([]);
    expect(await (await fetch(`${url}/openapi.yaml`)).text()).toMatch(/operationId: getLink/);
    // The link keeps its stored value; this contract has no such field, so it is not shown.
    const read = await call(url, 'GET', `/links/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('expiresAt');
    // FILE's validator now: a field of the earlier version is refused.
    expect((await call(url, 'POST', '/links', { ...NEW_LINK, expiresAt: '2030-01-01T00:00:00.000Z' })).status).toBe(400);
    const plain = await call(url, 'POST', '/links', NEW_LINK);
    expect(plain.status).toBe(201);

    edit('expires-at.yaml');
    const back = await contractLines(2);
    expect(back[1]).toMatch(/^contract reloaded: .*; getLink: no longer in the file \(was from the store\); Link\.expiresAt: generated and stored \(new\);/);
    // The stored value comes back; a link stored while the field was not served gets one made from the schema on read.
    const links = (await (mock as RunningMock).links('demo-key')) as { id: string; expiresAt?: string }[];
    expect(links.find((link) => link.id === id)?.expiresAt).toBe('2030-01-01T00:00:00.000Z');
    expect(links.find((link) => link.id === plain.body['id'])?.expiresAt).toBe('2027-01-31T23:59:59.000Z');
  });

  it('an edit the mock cannot serve, refused or invalid, keeps the running contract and says why in one line', { timeout: 40_000 }, async () => {
    const { url } = await start('get-link.yaml');
    const before = await classes(url);
    const { body } = await call(url, 'POST', '/links', NEW_LINK);
    const id = String(body['id']);

    edit('create-destination-removed.yaml');
    const [refused] = await contractLines(1);
    expect(refused).toBe(`contract NOT reloaded, keeping the running one (version 0.0.3): cannot serve --contract ${file}: /components/schemas/CreateLinkRequest/properties: createLink's request no longer has 'destinationUrl', which its rules need (D7)`);
    edit('id-renamed.yaml');
    const [, twoChanges] = await contractLines(2);
    expect(twoChanges).toMatch(new RegExp(`^contract NOT reloaded, keeping the running one \\(version 0\\.0\\.3\\): cannot serve --contract ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: /paths/~1links~1\\{linkId\\}/put: .*; cannot serve .*/delete: `));
    edit('not-yaml.yaml');
    const [, , invalid] = await contractLines(3);
    expect(invalid).toMatch(/^contract NOT reloaded, keeping the running one \(version 0\.0\.3\): cannot serve .*next\.yaml: not YAML or JSON at line 7, column 1: /);

    expect(lines.filter((line) => line.startsWith('contract ')).every((line) => !line.includes('\n'))).toBe(true);
    expect(await classes(url)).toEqual(before);
    expect((await call(url, 'GET', `/links/${id}`)).status).toBe(200);
    expect((await call(url, 'POST', '/links', NEW_LINK)).status).toBe(201);
  });

  it('an edit a scenario of the running set cannot live with keeps the running contract, naming the scenario file', { timeout: 40_000 }, async () => {
    const scenarios = join(dir, 'scenarios');
    mkdirSync(scenarios);
    const scenarioFile = join(scenarios, 'missing-link.yaml');
    writeFileSync(scenarioFile, 'name: missing-link\ndescription: getLink answers 404\nrules:\n  - match: { operation: getLink }\n    error: not-found\n');
    const { url } = await start('get-link.yaml', scenarios);
    const { body } = await call(url, 'POST', '/links', NEW_LINK);
    edit('expires-at.yaml');
    const [refused] = await contractLines(1);
    expect(refused).toMatch(new RegExp(`^contract NOT reloaded, keeping the running one \\(version 0\\.0\\.3\\): scenario refused: ${scenarioFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*getLink`));
    expect(served(await classes(url))['getLink']).toBe('store');
    const forced = await fetch(`${url}/links/${String(body['id'])}`, { headers: { 'x-api-key': 'demo-key', 'x-mock-scenario': 'missing-link' } });
    expect(forced.status).toBe(404);
  });

  it('a request in flight finishes on the contract it started on', { timeout: 40_000 }, async () => {
    const { url } = await start('expires-at.yaml');
    // The head is sent and taken (100 Continue: the server has handed it to the app); the body waits for the swap.
    const answer = new Promise<{ status: number; body: Record<string, unknown> }>((done, fail) => {
      const sent = request(`${url}/links`, { method: 'POST', headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json', expect: '100-continue' } });
      sent.on('error', fail);
      sent.on('continue', () => {
        edit('get-link.yaml');
        void contractLines(1).then(() => sent.end(JSON.stringify(NEW_LINK)), fail);
      });
      sent.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => done({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      });
    });
    const { status, body } = await answer;
    expect(lines.filter((line) => line.startsWith('contract reloaded'))).toHaveLength(1);
    expect(status).toBe(201);
    // Made by the contract it started on: FILE's first version generates expiresAt.
    expect(body['expiresAt']).toBe('2027-01-31T23:59:59.000Z');
    expect((await call(url, 'POST', '/links', NEW_LINK)).body).not.toHaveProperty('expiresAt');
  });
});
