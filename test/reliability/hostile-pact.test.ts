// Hostile input to the Pact surfaces, on the built CLI as real processes (issue 23, item 11):
//  - requests whose query names are members of every JavaScript object (?constructor=1,
//    ?__proto__=1, ?hasOwnProperty=1, ?toString=1) are answered, and `pact export` still works
//    with them in the journal (it crashed for everyone: query[name].push is not a function), and
//    `pact check` passes that export, noting each such query (issue 37, A8);
//  - a provider state makes a link whose id is `__proto__`: it and every link acknowledged before
//    survive a kill -9 and a restart on the file store;
//  - `pact check` on hostile pact files exits 1 with one line on stderr, never a stack, and
//    writes its JUnit file.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PACT_BYTES, MAX_PACT_INTERACTIONS } from '../../src/pact/pact-input.js';
import { runCli } from '../helpers/cli-process.js';
import { fixture } from '../pact/pact-fixtures.js';
import { DEMO, jsonHeaders, listLinks, send, startServer, stopAll, type Server } from './helpers.js';

const started: Server[] = [];
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-hostile-pact-'));
});
afterEach(async () => {
  await stopAll(started);
  rmSync(dir, { recursive: true, force: true });
});

const NAMES = ['constructor', '__proto__', 'hasOwnProperty', 'toString'];
const CREATE = { destinationUrl: 'https://example.com/hostile', domain: 'short.test', tags: [] };

describe('query names of every JavaScript object, then pact export; a __proto__ link id through kill -9', () => {
  it('answers them, exports them, and keeps every acknowledged link', async () => {
    const db = join(dir, 'db.json');
    const server = await startServer(['--db', db, '--quiet'], dir, started);
    const agent = new http.Agent({ keepAlive: true });
    const acked = new Set<string>();
    try {
      for (const name of NAMES) {
        const created = await send(agent, server.url, { method: 'POST', path: `/links?${name}=1`, headers: jsonHeaders(), body: JSON.stringify(CREATE) });
        expect(created.status, `POST /links?${name}=1: ${created.text}`).toBe(201);
        const id = (JSON.parse(created.text) as { id: string }).id;
        acked.add(id);
        const missing = await send(agent, server.url, { method: 'DELETE', path: `/links/lnk_missing?${name}=1&${name}=2`, headers: jsonHeaders() });
        expect(missing.status).toBe(404);
      }
      for (const field of NAMES) {
        const body = JSON.stringify(CREATE).replace('{', `{${JSON.stringify(field)}:{"x":1},`);
        const refused = await send(agent, server.url, { method: 'POST', path: '/links', headers: { ...jsonHeaders(), [field.toLowerCase()]: '1' }, body });
        expect(refused.status, `a body field ${field}: ${refused.text}`).toBe(400);
        expect(refused.text).toContain(field);
      }
      const state = await send(agent, server.url, { method: 'POST', path: '/__admin/provider-states', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: `a link __proto__ exists for the account of ${DEMO}`, params: { slug: 'proto-slug' } }) });
      expect(state.status, state.text).toBe(200);
      acked.add('__proto__');

      const out = join(dir, 'pacts', 'web.json');
      const exported = await runCli(['pact', 'export', '--consumer', 'web', '--base-url', server.url, '--out', out], dir);
      expect({ code: exported.code, stderr: exported.stderr }).toEqual({ code: 0, stderr: '' });
      const pact = JSON.parse(readFileSync(out, 'utf8')) as { interactions: { request: { query?: Record<string, string[]> } }[] };
      const queries = pact.interactions.map((interaction) => interaction.request.query).filter((query) => query !== undefined);
      expect(queries.flatMap((query) => Object.keys(query))).toContain('constructor');

      // The exported pact round-trips (issue 37, A8): those names are checked, each noted as a query
      // the contract does not define, and the check passes; the JUnit file is written.
      const junit = join(dir, 'reports', 'exported.xml');
      const checked = await runCli(['pact', 'check', out, '--junit', junit], dir);
      expect({ code: checked.code, stderr: checked.stderr }, checked.stdout).toEqual({ code: 0, stderr: '' });
      // The export keeps one exchange per outcome, so only some of the names reach the pact: each of those is noted.
      for (const name of new Set(queries.flatMap((query) => Object.keys(query)))) expect(checked.stdout).toContain(`note: request query ${name}: is not defined by the contract`);
      expect(existsSync(junit)).toBe(true);

      expect((await server.signal('SIGKILL')).signal).toBe('SIGKILL');
      const again = await startServer(['--db', db, '--quiet'], dir, started);
      const links = await listLinks(again.url);
      for (const id of acked) expect(links.has(id), `link ${id} after kill -9 and restart`).toBe(true);
      const read = await send(agent, again.url, { method: 'PUT', path: '/links/__proto__', headers: jsonHeaders(), body: JSON.stringify({ tags: [] }) });
      expect(read.status, read.text).toBe(200);
      expect(JSON.parse(read.text)).toMatchObject({ id: '__proto__', slug: 'proto-slug' });
    } finally {
      agent.destroy();
    }
  });
});

const deep = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

function v3Text(change: (pact: Record<string, any>) => void): string {
  const pact = fixture('good-v3.json');
  change(pact);
  return JSON.stringify(pact);
}

const HOSTILE: [string, () => string | Buffer][] = [
  ['header constructor', () => v3Text((pact) => (pact['interactions'][0].request.headers = 'H')).replace('"H"', '{"constructor":"x","x-api-key":"demo-key"}')],
  ['body 20,000 deep', () => v3Text((pact) => (pact['interactions'][2].response.body = 'D')).replace('"D"', deep(20_000))],
  ['not UTF-8', () => Buffer.concat([Buffer.from(v3Text(() => undefined).slice(0, 40)), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(v3Text(() => undefined).slice(40))])],
  ['over 16 MiB', () => v3Text((pact) => (pact['interactions'][0].request.body.title = 'x'.repeat(MAX_PACT_BYTES)))],
  ['too many interactions', () => v3Text((pact) => (pact['interactions'] = Array.from({ length: MAX_PACT_INTERACTIONS + 1 }, (_, index) => ({ ...pact['interactions'][index % 7], description: `i${index}` }))))],
];

describe('pact check on hostile pact files', () => {
  it.each(HOSTILE)('%s: exit 1, one line, no stack, the JUnit file', async (name, content) => {
    const file = join(dir, 'hostile.json');
    writeFileSync(file, content());
    const junit = join(dir, 'reports', 'pact.xml');
    const started = performance.now();
    const run = await runCli(['pact', 'check', file, '--junit', junit], dir);
    expect(performance.now() - started, `${name} took`).toBeLessThan(10_000);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^shortlink-mock pact check: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(junit, 'utf8')).toContain('type="PactRefused"');
  });
});
