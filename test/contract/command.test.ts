// `shortlink-mock contract` as a CI job runs it: the built CLI as a real process, over real HTTP,
// against the built mock (also a real process) and against a broken server. Needs `npm run build`
// (npm test builds first).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, MOCK_LIMITED_KEY, mockLinkIdOf, type Listening } from '../../contract-tests/servers.js';
import { runContractCommand } from '../../src/contract/command.js';
import { BROKEN_SERVERS } from '../broken-servers/catalogue.js';
import { CLI, startCli, type CliProcess } from '../helpers/cli-process.js';
import { envWithout, runToEnd, type Run } from './run-to-end.js';

const RUN_LIMIT_MS = 60_000;

/** Runs `shortlink-mock contract ...` to completion, bounded; CONTRACT_* variables of this shell do not leak in. */
function contract(args: string[], contractEnv: Record<string, string> = {}): Promise<Run> {
  return runToEnd([CLI, 'contract', ...args], { env: { ...envWithout(['CONTRACT_']), ...contractEnv }, limitMs: RUN_LIMIT_MS });
}

let dir: string;
let mock: CliProcess;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slm-contract-'));
  mock = await startCli(['--db', ':memory:', '--quiet'], dir);
});
afterAll(async () => {
  await mock?.stop('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const DOCUMENTED: Record<string, number[]> = { createLink: [201, 400, 401, 404], updateLink: [200, 400, 401, 404], deleteLink: [204, 401, 404] };

describe('shortlink-mock contract', () => {
  it('passes against the built mock, reports each operation and status, and writes JUnit XML', { timeout: RUN_LIMIT_MS }, async () => {
    const junit = join(dir, 'reports', 'contract.xml');
    const limitedLinkId = await mockLinkIdOf(mock.url, MOCK_LIMITED_KEY);
    if (!limitedLinkId) throw new Error(`the mock at ${mock.url} shows no link of ${MOCK_LIMITED_KEY} in its admin API`);
    const accounts = ['--other-api-key', 'other-key', '--other-domain', 'go.acme.test', '--other-account-domain', 'links.globex.test', '--limited-link-id', limitedLinkId];
    // The limited account's key comes from the environment: the twin of --limited-api-key.
    const run = await contract(['--base-url', mock.url, '--api-key', 'demo-key', ...accounts, '--fuzz-runs', '50', '--seed', '11', '--junit', junit], { CONTRACT_LIMITED_API_KEY: MOCK_LIMITED_KEY });
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    for (const [operation, statuses] of Object.entries(DOCUMENTED)) {
      const section = run.stdout.slice(run.stdout.indexOf(`\n${operation}\n`));
      for (const status of statuses) expect(section).toMatch(new RegExp(`^  ${status}  \\d+ checked: \\d+ passed, 0 failed`, 'm'));
    }
    expect(run.stdout).toMatch(/^fuzz\n {4}passed {7}fuzzed requests[^\n]*\n +50 requests/m);
    expect(run.stdout).toMatch(/^PASSED: \d+ checked, \d+ passed, 0 failed, 0 not checked/m);
    expect(run.stdout).toMatch(/account at its link limit yes \(link lnk_[^)]+\)/);
    expect(existsSync(junit)).toBe(true);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites [^>]*failures="0"/);
    expect(xml.match(/<testcase /g)?.length).toBeGreaterThanOrEqual(40);
  });

  it('fails against a broken server with exit code 1 and prints the reason and the offending exchange', { timeout: RUN_LIMIT_MS }, async () => {
    const broken = BROKEN_SERVERS.find((server) => server.name === 'create-200');
    if (!broken) throw new Error('the broken server create-200 is missing from the catalogue');
    let server: Listening | undefined;
    try {
      server = await listen(broken.app());
      const run = await contract(['--base-url', server.url, '--api-key', 'demo-key', '--fuzz-runs', '20', '--seed', '11']);
      expect(run.code, run.stdout).toBe(1);
      expect(run.stdout).toMatch(/FAILED {7}creates a link with the given slug/);
      expect(run.stdout).toMatch(/reason: +createLink with a valid body \(given\): expected 201, got 200; status 200 is not documented for createLink/);
      expect(run.stdout).toMatch(/request: +curl -sS -i -X POST '[^']+\/links' -H "x-api-key: \$CONTRACT_API_KEY"/);
      expect(run.stdout).toMatch(/response: 200 application\/json/);
      expect(run.stdout).toMatch(/^FAILED: /m);
      // Failures, but no mock's health route to ask about a scenario: nothing is said of one.
      expect(run.stdout).not.toContain('note:');
    } finally {
      await server?.close();
    }
  });

  // Flag handling needs no server and no process: runContractCommand takes argv, env and io.
  it.each([
    [['--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--fuzz-runs', 'many'], {}, /--fuzz-runs must be a whole number from 0 to 100000, got 'many'/],
    [['--api-key', 'k'], {}, /--base-url is required \(or set CONTRACT_BASE_URL\)/],
    [['--base-url', 'ftp://x', '--api-key', 'k'], {}, /--base-url must be an http\(s\) URL/],
    [['--bogus'], {}, /unknown option '--bogus'/],
    [[], { CONTRACT_BASE_URL: 'http://127.0.0.1:9' }, /--api-key is required \(or set CONTRACT_API_KEY\)/],
    [['--base-url', 'http://127.0.0.1:9', '--api-key', 'k'], { CONTRACT_LIMITED_API_KEY: ' ' }, /CONTRACT_LIMITED_API_KEY must not be empty/],
  ])('refuses %j with one line on stderr and exit code 2', async (argv, env, message) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runContractCommand(argv, env, { out: (text) => out.push(text), err: (text) => err.push(text) });
    expect({ code, out, err }).toEqual({ code: 2, out: [], err: [expect.stringMatching(message)] });
  });

  // Each refusal names what the user set: the CONTRACT_* variable when the value came from it, the
  // flag when the same value came from the flag (src/cli.ts hands the command process.env as it is).
  const server = ['--base-url', 'http://127.0.0.1:9'];
  const key = ['--api-key', 'k'];
  const asGiven = (from: string, value: string): string => (from.startsWith('--') ? `${from} ${value}` : `${from}=${value}`);
  const refusedValues: Array<[variable: string, flag: string, value: () => string, others: string[], message: (from: string, value: string) => string]> = [
    ['CONTRACT_BASE_URL', '--base-url', () => 'nope', key, (from, value) => `${from} must be an http(s) URL such as http://127.0.0.1:4010, got '${value}'`],
    ['CONTRACT_API_KEY', '--api-key', () => '', server, (from) => `${from} must not be empty`],
    ['CONTRACT_FUZZ_RUNS', '--fuzz-runs', () => 'abc', [...server, ...key], (from, value) => `${from} must be a whole number from 0 to 100000, got '${value}'`],
    ['CONTRACT_SEED', '--seed', () => 'x', [...server, ...key], (from, value) => `${from} must be a whole number from 0 to 2147483647, got '${value}'`],
    ['CONTRACT_TIMEOUT_MS', '--timeout-ms', () => '-4', [...server, ...key], (from, value) => `${from} must be a whole number from 1 to 600000, got '${value}'`],
    ['CONTRACT_JUNIT', '--junit', () => dir, [...server, ...key], (from, value) => `cannot write ${asGiven(from, value)}: ${value} is a directory`],
    ['CONTRACT_FILE', '--contract', () => join(dir, 'no-such.yaml'), [...server, ...key], (from, value) => `cannot check against ${asGiven(from, value)}: no such file`],
  ];
  describe.each(refusedValues)('a bad %s', (variable, flag, value, others, message) => {
    async function refusal(argv: string[], env: Record<string, string>): Promise<string[]> {
      const out: string[] = [];
      const err: string[] = [];
      expect(await runContractCommand(argv, env, { out: (text) => out.push(text), err: (text) => err.push(text) })).toBe(2);
      expect(out).toEqual([]);
      return err;
    }

    it('is refused naming the variable when the value came from it', async () => {
      expect(await refusal(others, { [variable]: value() })).toEqual([expect.stringContaining(`shortlink-mock contract: ${message(variable, value())}`)]);
    });

    it(`is refused naming ${flag} when the value came from the flag`, async () => {
      expect(await refusal([...others, `${flag}=${value()}`], {})).toEqual([expect.stringContaining(`shortlink-mock contract: ${message(flag, value())}`)]);
    });
  });

  it('prints its help with every flag and environment variable', async () => {
    const out: string[] = [];
    expect(await runContractCommand(['--help'], {}, { out: (text) => out.push(text), err: () => {} })).toBe(0);
    const flags = ['--base-url', '--api-key', '--other-api-key', '--other-account-domain', '--domain', '--other-domain', '--limited-api-key', '--limited-link-id', '--fuzz-runs', '--seed', '--timeout-ms', '--junit'];
    for (const flag of flags) expect(out.join('\n')).toContain(flag);
    const names = ['CONTRACT_BASE_URL', 'CONTRACT_API_KEY', 'CONTRACT_OTHER_API_KEY', 'CONTRACT_OTHER_ACCOUNT_DOMAIN', 'CONTRACT_DOMAIN', 'CONTRACT_LIMITED_API_KEY', 'CONTRACT_LIMITED_LINK_ID'];
    for (const name of names) expect(out.join('\n')).toContain(name);
  });
});
