// The CLI as a user runs it: a real process on a free port, answering over real HTTP, keeping its
// data across a restart, stopping cleanly on SIGTERM, announcing itself in a ready file, and
// failing start-up in one clear line that names what the user set.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES_FILE } from '../../src/contract/package-files.js';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.js';

let dir: string;
let running: CliProcess | undefined;
let occupied: Server | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-cli-'));
});
afterEach(async () => {
  await running?.stop('SIGKILL');
  await new Promise<void>((resolve) => (occupied ? occupied.close(() => resolve()) : resolve()));
  [running, occupied] = [undefined, undefined];
  rmSync(dir, { recursive: true, force: true });
});

/** Another server on a port the OS picked: the CLI asked for that port finds it busy. */
async function busyPort(): Promise<number> {
  occupied = createServer((_req, res) => res.end('busy'));
  await new Promise((resolve) => occupied?.listen(0, '127.0.0.1', () => resolve(undefined)));
  return (occupied.address() as AddressInfo).port;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs the CLI expecting a refusal: exit code 2, nothing on stdout, exactly one line on stderr. */
async function refusal(args: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await runCli(args, dir, env);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  return result.stderr.trim();
}

const createLink = (url: string, slug: string) =>
  fetch(`${url}/links`, {
    method: 'POST',
    headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
    body: JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', slug, tags: [] }),
  });

describe('shortlink-mock CLI', () => {
  it('starts on a free port, prints the URL, db and demo keys, answers, and keeps data across a SIGTERM restart', async () => {
    running = await startCli(['--db', 'state/db.json'], dir);
    expect(running.output()).toMatch(/db\s+.*state\/db\.json \(seeded/);
    for (const key of ['demo-key', 'other-key', 'limited-key']) expect(running.output()).toContain(key);
    const created = await createLink(running.url, 'from-cli');
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await running.waitForOutput(/POST \/links 201 \d+\.\dms/);
    expect(await running.stop('SIGTERM')).toBe(0);

    running = await startCli(['--db', 'state/db.json', '--quiet'], dir);
    expect(running.output()).toContain('kept from an earlier run');
    const updated = await fetch(`${running.url}/links/${id}`, {
      method: 'PUT',
      headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
      body: JSON.stringify({ tags: [{ name: 'after-restart' }] }),
    });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ slug: 'from-cli', tags: [{ name: 'after-restart' }] });
    expect(running.output()).not.toMatch(/PUT \/links/);
  });

  it('says in one line when --fixtures or MOCK_SEED is not used because the db holds earlier data', async () => {
    writeFileSync(join(dir, 'my.json'), readFileSync(DEFAULT_FIXTURES_FILE));
    running = await startCli(['--db', 'db.json', '--fixtures', 'my.json'], dir);
    expect(running.output()).not.toMatch(/warning/);
    expect(await running.stop('SIGTERM')).toBe(0);

    running = await startCli(['--db', 'db.json', '--fixtures', 'my.json'], dir, { MOCK_SEED: '7' });
    const warnings = running.output().split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      'warning: --fixtures my.json is not used: db.json holds data from an earlier run, kept as it is; add --reset to re-seed it (this replaces its data)',
      'warning: MOCK_SEED=7 is not used: db.json holds data from an earlier run, kept as it is; add --reset to re-seed it (this replaces its data)',
    ]);
    expect(await running.stop('SIGTERM')).toBe(0);

    running = await startCli(['--db', 'db.json', '--fixtures', 'my.json', '--reset'], dir);
    expect(running.output()).not.toMatch(/warning/);
  });

  it('serves the contract and health, with :memory: writing nothing', async () => {
    running = await startCli(['--db', ':memory:'], dir);
    expect((await fetch(`${running.url}/openapi.yaml`)).status).toBe(200);
    expect(await (await fetch(`${running.url}/__admin/health`)).json()).toMatchObject({ status: 'ok' });
  });

  it.each([
    [['--bogus'], /unknown option '--bogus'/],
    [['--port', 'abc'], /--port must be a whole number/],
    [['--db', 'bad.json'], /bad\.json.*--reset/],
    [['--fixtures', 'missing.json'], /cannot load fixtures .*missing\.json/],
  ])('refuses %j with one line on stderr and exit code 2', async (args, message) => {
    writeFileSync(join(dir, 'bad.json'), '{"formatVersion": 1, "acc');
    const result = await runCli(args, dir);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('lists every option and every subcommand in --help', async () => {
    const result = await runCli(['--help'], dir);
    expect(result.code).toBe(0);
    for (const flag of ['--port', '--host', '--db', '--seed', '--reset', '--fixtures', '--cors-origin', '--ready-file', '--quiet']) {
      expect(result.stdout).toContain(flag);
    }
    for (const command of ['contract', 'coverage']) expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  });
});

describe('start-up refusals name what the user set', () => {
  it.each([
    ['MOCK_SCENARIO', {}, { MOCK_SCENARIO: 'nope' }, /^shortlink-mock: MOCK_SCENARIO: unknown scenario 'nope'; known: .*not-found/],
    ['--scenario', { args: ['--scenario', 'nope'] }, {}, /^shortlink-mock: --scenario: unknown scenario 'nope'/],
    ['MOCK_HOST', {}, { MOCK_HOST: '0.0.0.0' }, /^shortlink-mock: MOCK_HOST=0\.0\.0\.0 is not a loopback address: set --admin-token/],
    ['MOCK_PORT', {}, { MOCK_PORT: 'abc' }, /^shortlink-mock: MOCK_PORT must be a whole number/],
    ['MOCK_CORS_ORIGIN', {}, { MOCK_CORS_ORIGIN: 'app.example.test' }, /^shortlink-mock: MOCK_CORS_ORIGIN: 'app\.example\.test' has no scheme/],
    // The near miss the admin API and x-mock-scenario guess (nearest.ts), the same for the flag and its variable.
    ['MOCK_SCENARIO, a near miss', {}, { MOCK_SCENARIO: 'slo' }, /^shortlink-mock: MOCK_SCENARIO: unknown scenario 'slo'; did you mean 'slow'\? \(known: flaky-network, .*not-found, slow, unauthorized\)$/],
    ['--scenario, a near miss', { args: ['--scenario', 'slo'] }, {}, /^shortlink-mock: --scenario: unknown scenario 'slo'; did you mean 'slow'\? \(known: .*slow/],
  ])('%s', async (_name, { args = [] }: { args?: string[] }, env: Record<string, string>, message) => {
    const line = await refusal(['--db', ':memory:', ...args], env);
    expect(line).toMatch(message);
    if (args.length === 0) expect(line).not.toMatch(/--(scenario|host|port|cors-origin)\b/);
  });

  // Each option that names a file or a directory read at start: its refusal names the flag or the
  // variable set, then says what the step found, as a refused value of any other option does.
  const paths: [string, string, (dir: string) => string, (given: string, named: string, path: string) => RegExp][] = [
    ['fixtures', 'MOCK_FIXTURES', (at) => join(at, 'none.json'), (given, named, path) => new RegExp(`^shortlink-mock: ${named}: cannot load fixtures ${escape(path)}: ENOENT`)],
    ['db', 'MOCK_DB', (at) => at, (given, named, path) => new RegExp(`^shortlink-mock: ${named}: db ${escape(path)}: this is not a shortlink-mock db file \\(it is a directory\\)`)],
    ['scenarios', 'MOCK_SCENARIOS', (at) => join(at, 'none'), (given, named, path) => new RegExp(`^shortlink-mock: ${named}: scenario refused: cannot read scenarios directory ${escape(path)}: ENOENT`)],
    ['ready-file', 'MOCK_READY_FILE', (at) => join(at, 'none', 'url'), (given, named, path) => new RegExp(`^shortlink-mock: ${named}: cannot write the ready file ${escape(path)}: ENOENT`)],
    ['contract', 'MOCK_CONTRACT', (at) => join(at, 'none.yaml'), (given) => new RegExp(`^shortlink-mock: cannot serve ${escape(given)}: no such file$`)],
    ['variety-from', 'MOCK_VARIETY_FROM', (at) => join(at, 'none.yaml'), (given) => new RegExp(`^shortlink-mock: cannot read ${escape(given)}: no such file$`)],
  ];
  it.each(paths)('--%s, or %s, naming a path that cannot be read', async (flag, variable, pathIn, says) => {
    const path = pathIn(dir);
    // The db is the one under test, or memory: the other refusals come before any file is written.
    const db = flag === 'db' ? [] : ['--db', ':memory:'];
    expect(await refusal(['--port', '0', ...db, `--${flag}`, path])).toMatch(says(`--${flag} ${path}`, `--${flag}`, path));
    const line = await refusal(['--port', '0', ...db], { [variable]: path });
    expect(line).toMatch(says(`${variable}=${path}`, variable, path));
    expect(line).not.toContain(`--${flag}`);
  });

  // A mistyped Redis URL was taken for a file path: a file named 'redis:' written in the working directory, a mock of its own.
  it.each([
    [['--db', 'redis:'], {}, /^shortlink-mock: --db: 'redis:' is not a Redis URL; a Redis URL is redis:\/\/\[user:pass@\]host:port\[\/n\]/],
    [['--db', 'rediss:'], {}, /^shortlink-mock: --db: 'rediss:' is not a Redis URL; /],
    [[], { MOCK_DB: 'redis:/cache.test:6379' }, /^shortlink-mock: MOCK_DB: 'redis:\/cache\.test:6379' is not a Redis URL; .*unix:\/\/\/path\/redis\.sock/],
    [[], { MOCK_DB: 'unix:redis.sock' }, /^shortlink-mock: MOCK_DB: 'unix:redis\.sock' is not a Redis URL; /],
  ])('refuses the mistyped Redis URL of %j %j, writing no file', async (args, env: Record<string, string>, says) => {
    expect(await refusal(['--port', '0', ...args], env)).toMatch(says);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses fixtures asking for more links than a seed may make, in one line, before seeding or writing the db', async () => {
    const fixtures = join(dir, 'huge.json');
    const accounts = [{ apiKey: 'huge-key', name: 'Huge', linkLimit: 6_000_000, customDomains: [], tags: 1, links: 6_000_000 }];
    writeFileSync(fixtures, JSON.stringify({ defaultDomain: 'short.test', accounts }));
    const db = join(dir, 'db.json');
    expect(await refusal(['--db', db, '--reset', '--fixtures', fixtures])).toBe(
      `shortlink-mock: --fixtures: cannot load fixtures ${fixtures}: fixtures: the accounts ask for 6,000,000 links in all; a seed makes at most 5,000,000 (MAX_SEEDED_LINKS): lower their "links"`,
    );
    expect(existsSync(db)).toBe(false);
  });

  it('ignores PORT and HOST, which shells and CI images set for other programs', async () => {
    // Read, either would be refused (not a port; not loopback) before the unknown scenario is.
    const line = await refusal(['--db', ':memory:', '--scenario', 'nope'], { PORT: 'abc', HOST: 'build-box-7' });
    expect(line).toMatch(/^shortlink-mock: --scenario: unknown scenario 'nope'/);
  });

  it('suggests the nearest flag for a typo, in lower case', async () => {
    expect(await refusal(['--prot', '5000'])).toBe("shortlink-mock: unknown option '--prot'; did you mean --port? (see --help)");
  });

  it('suggests --port 0 when the port is busy, naming where the port came from', async () => {
    const port = await busyPort();
    expect(await refusal(['--db', ':memory:', '--port', String(port)])).toBe(
      `shortlink-mock: cannot listen on 127.0.0.1: --port ${port} is already in use; pick another with --port N, or --port 0 for a free one (the banner and --ready-file say which)`,
    );
    // startCli adds --port 0, so the variable is tried through runCli, on its own.
    expect(await refusal(['--db', ':memory:'], { MOCK_PORT: String(port) })).toMatch(new RegExp(`: MOCK_PORT=${port} is already in use; .*--port 0 for a free one`));
  });
});

describe('--ready-file', () => {
  it('holds the URL once the mock listens, and is removed on a clean stop', async () => {
    const ready = join(dir, 'mock-url');
    running = await startCli(['--db', ':memory:', '--quiet', '--ready-file', ready], dir);
    // Written before the banner: seeing the URL printed means the file is there.
    expect(readFileSync(ready, 'utf8')).toBe(`${running.url}\n`);
    expect(await running.stop('SIGTERM')).toBe(0);
    running = undefined;
    expect(existsSync(ready)).toBe(false);
  });

  it('comes from MOCK_READY_FILE too', async () => {
    running = await startCli(['--db', ':memory:', '--quiet'], dir, { MOCK_READY_FILE: join(dir, 'env-url') });
    expect(readFileSync(join(dir, 'env-url'), 'utf8')).toBe(`${running.url}\n`);
  });

  it('left by an earlier run is removed at start, so a failed start announces nothing', async () => {
    const ready = join(dir, 'mock-url');
    writeFileSync(ready, 'http://127.0.0.1:4010\n');
    const port = await busyPort();
    await refusal(['--db', ':memory:', '--port', String(port), '--ready-file', ready]);
    expect(existsSync(ready)).toBe(false);
  });

  it('that cannot be written is a refusal naming the file', async () => {
    expect(await refusal(['--db', ':memory:', '--port', '0', '--ready-file', join(dir, 'no-such-dir', 'url')])).toMatch(/cannot write the ready file .*no-such-dir\/url/);
  });
});
