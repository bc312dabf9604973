// The commands that read a running mock's admin API (coverage, drift, pact export, robustness
// --base-url, evolve --base-url) pointed at something that is not one: an answer past its route's
// bound, an answer of another shape, a redirect elsewhere, nothing listening. Each prints one line
// naming the URL on stderr and exits with its documented code (robustness and evolve 2, the others
// 1): never a stack trace,
// never the admin token sent to the redirect's origin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { runCoverageCommand } from '../../src/commands/coverage.js';
import { runDriftCommand } from '../../src/commands/drift.js';
import { runEvolveCommand } from '../../src/commands/evolve.js';
import { CONTRACT_FILE } from '../../src/contract/package-files.js';
import { runRobustnessCommand } from '../../src/commands/robustness.js';
import { runPactExport } from '../../src/pact/export-command.js';
import { hostileAdmin, itemsFor, type HostileAnswer, type HostileServer } from '../helpers/hostile-admin.js';
import { holdRefusingPort } from '../helpers/refusing-port.js';

const MiB = 1024 * 1024;
const TOKEN = 'the-secret-token';
const dir = mkdtempSync(join(tmpdir(), 'admin-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let servers: HostileServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(answer: Parameters<typeof hostileAdmin>[0]): Promise<HostileServer> {
  const server = await hostileAdmin(answer);
  servers.push(server);
  return server;
}

interface Command {
  name: string;
  code: number;
  run: (url: string, io: { out: (text: string) => void; err: (text: string) => void }) => Promise<number>;
}

const COMMANDS: Command[] = [
  { name: 'coverage', code: 1, run: (url, io) => runCoverageCommand(['--base-url', url, '--admin-token', TOKEN], {}, io) },
  { name: 'drift', code: 1, run: (url, io) => runDriftCommand(['--base-url', url, '--admin-token', TOKEN], {}, io) },
  { name: 'pact export', code: 1, run: (url, io) => runPactExport(['--consumer', 'web', '--base-url', url, '--admin-token', TOKEN, '--out', join(dir, 'never.json')], {}, io) },
  { name: 'evolve', code: 2, run: (url, io) => runEvolveCommand(['--contract', CONTRACT_FILE, '--base-url', url, '--admin-token', TOKEN], {}, io) },
  { name: 'robustness', code: 2, run: (url, io) => runRobustnessCommand(['--base-url', url, '--admin-token', TOKEN, '--runs', '1', '--', process.execPath, '-e', ''], {}, io) },
];

async function run(command: Command, url: string): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command.run(url, { out: (text) => out.push(text), err: (text) => err.push(...text.split('\n')) });
  return { code, out, err };
}

/** What a real mock answers to the calls that come before the hostile one. */
const plain = (path: string): HostileAnswer | undefined => {
  if (path.startsWith('/__admin/variety/dimensions')) return { body: '{"dimensions":[{"name":"createLink.clickCount:absent","description":"d"}]}' };
  if (path.startsWith('/__admin/variety')) return { body: '{"seed":0}' };
  if (path.startsWith('/__admin/health')) return { body: '{"status":"ok","version":"0.1.0"}' };
  if (path.startsWith('/__admin/accounts')) return { body: '{"accounts":[]}' };
  return undefined;
};

describe.each(COMMANDS)('shortlink-mock $name against a server that is not a mock', (command) => {
  test('an answer past what its route can hold: one line naming the URL and the bound', async () => {
    // Past every route's bound (the drift report's is the largest, 32 MiB), well-formed JSON.
    const server = await serve(() => ({ head: '{"pad":[', item: '{}', count: itemsFor(33 * MiB, '{}'), tail: ']}' }));
    const result = await run(command, server.url);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(new RegExp(`^shortlink-mock ${command.name}: .*${server.url}/__admin/\\S+.* more than \\d+ bytes`));
    expect(result.code).toBe(command.code);
  });

  test('an answer of another shape (a journal without entries, a report without groups): one line naming the URL', async () => {
    const server = await serve((req) => plain(req.url ?? '') ?? { body: '{"size":1000,"distinct":0,"dropped":0,"documented":[]}' });
    const result = await run(command, server.url);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(new RegExp(`^shortlink-mock ${command.name}: .*${server.url}/__admin/`));
    expect(result.err[0]).not.toMatch(/Cannot read properties|TypeError/);
    expect(result.code).toBe(command.code);
  });

  test('a 307 elsewhere: refused in one line naming the URL and the Location; the token never reaches the other origin', async () => {
    const elsewhere = await serve((req) => plain(req.url ?? '') ?? { body: '{"entries":[],"size":1,"distinct":0,"dropped":0,"groups":[],"documented":[],"accounts":[]}' });
    const server = await serve((req) => ({ status: 307, headers: { location: `${elsewhere.url}${req.url}` } }));
    const result = await run(command, server.url);
    expect(elsewhere.seen.filter((seen) => seen.token !== undefined)).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(new RegExp(`^shortlink-mock ${command.name}: .*${server.url}/__admin/\\S+.*307.*${elsewhere.url}/__admin/`));
    expect(result.code).toBe(command.code);
  });

  test('nothing listening: one line naming the URL, with how to name the mock (--base-url URL or MOCK_BASE_URL)', async () => {
    const refusing = await holdRefusingPort();
    try {
      const result = await run(command, refusing.url);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toContain(refusing.url);
      expect(result.err[0]).toContain('ECONNREFUSED');
      expect(result.err[0]).toContain('--base-url URL');
      expect(result.err[0]).toContain('MOCK_BASE_URL');
      expect(result.code).toBe(command.code);
    } finally {
      await refusing.release();
    }
  });
});
