// `shortlink-mock mcp` over stdio, spawned from the built CLI and driven by the SDK's own Client:
// every tool against the mock it started, the documents as resources, hostile calls, an
// unreachable --base-url, and its exit when stdin closes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../src/toolkit/start-mock.js';
import { MCP_MAX_MESSAGE_BYTES } from '../../src/toolkit/mcp/limits.js';
import { runCli } from '../helpers/cli-process.js';
import { caller, jsonOf, stdioMcp, textOf, type StdioMcp } from './mcp-client.js';
import { expectHostileCallsAreToolErrors, expectMockInfo, expectScenarioAndJournal, expectScenarioTimes, expectToolList, expectVarietyAndReset } from './mcp-tools.js';

describe('shortlink-mock mcp over stdio', () => {
  let mcp: StdioMcp;
  let baseUrl: string;

  beforeAll(async () => {
    mcp = await stdioMcp();
    baseUrl = jsonOf<{ baseUrl: string }>(await caller(mcp.client)('mock_info')).baseUrl;
  });
  afterAll(async () => {
    await mcp?.client.close();
  });

  it('lists exactly the tools of D34', async () => {
    await expectToolList((await mcp.client.listTools()).tools.map((tool) => tool.name));
  });

  it('mock_info names its own mock, listening on a free port', async () => {
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expectMockInfo(caller(mcp.client), baseUrl);
  });

  it('use_scenario, journal, coverage, clear_scenario, create_account change and read the mock', async () => {
    await expectScenarioAndJournal(caller(mcp.client), baseUrl);
  });

  it('use_scenario with times: that many forced answers, then normal ones; a bad times is a tool error', async () => {
    await expectScenarioTimes(caller(mcp.client), baseUrl);
  });

  it('set_variety, clear_variety and reset', async () => {
    await expectVarietyAndReset(caller(mcp.client), baseUrl);
  });

  it('check_contract runs the suite against the mock and answers its summary', async () => {
    const summary = jsonOf<{ counts: { failed: number; passed: number }; failures: unknown[] }>(await caller(mcp.client)('check_contract', { baseUrl, apiKey: 'demo-key', otherApiKey: 'other-key', fuzzRuns: 5 }));
    expect(summary.counts.passed).toBeGreaterThan(10);
    expect(summary.failures).toEqual([]);
  });

  it('hostile calls are tool errors, never a crash', async () => {
    await expectHostileCallsAreToolErrors(caller(mcp.client));
  });

  it('serves the contract and the guides as resources', async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining(['shortlink-mock://contract/openapi.yaml', 'shortlink-mock://docs/scenarios.md']));
    const contract = await mcp.client.readResource({ uri: 'shortlink-mock://contract/openapi.yaml' });
    expect(contract.contents[0]).toMatchObject({ mimeType: 'application/yaml', text: expect.stringContaining('Short-Link Management API') });
  });

  it(`refuses a line over ${MCP_MAX_MESSAGE_BYTES} bytes without reading it whole, and goes on`, async () => {
    mcp.child().stdin?.write(`{"jsonrpc":"2.0","id":99,"method":"ping","params":{"pad":"${'x'.repeat(MCP_MAX_MESSAGE_BYTES)}"}}\n`);
    expect(jsonOf(await caller(mcp.client)('mock_info'))).toHaveProperty('baseUrl', baseUrl);
    await mcp.waitForStderr(/refused a message of more than 4194304 bytes/);
  });

  it('writes nothing but protocol messages to stdout: the mock logs to stderr', () => {
    expect(mcp.errors).toEqual([]);
    expect(mcp.stderr()).toMatch(/mock at http:\/\//);
    // The mock's own request lines (and its banner, if any) go to stderr.
    expect(mcp.stderr()).toMatch(/GET \/__admin\/health 200/);
  });

  it('exits when stdin closes, stopping its mock', async () => {
    const exited = new Promise<number | null>((done) => mcp.child().once('exit', (code) => done(code)));
    await mcp.client.close();
    expect(await exited).toBe(0);
    await expect(fetch(`${baseUrl}/__admin/health`)).rejects.toThrow();
  });
});

describe('shortlink-mock mcp with bad flags', () => {
  it.each<[string[], RegExp, Record<string, string>?]>([
    [['--port', 'many'], /--port/],
    [['--workers', '2', '--db', 'redis://127.0.0.1:1'], /mcp runs one mock in its own process: --workers is not for it/],
    [['--base-url', 'ftp://example.com'], /--base-url must be an http\(s\) URL/],
    [[], /^shortlink-mock mcp: MOCK_BASE_URL must be an http\(s\) URL such as http:\/\/127\.0\.0\.1:4010, got 'bad'/, { MOCK_BASE_URL: 'bad' }],
  ])('%j: exit 2 and one line naming the flag or variable, nothing on stdout', async (args, message, env = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-mcp-flags-'));
    try {
      const { code, stdout, stderr } = await runCli(['mcp', ...args], dir, env);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('shortlink-mock mcp on SIGTERM', () => {
  it('stops its mock and exits 0', async () => {
    const mcp = await stdioMcp(['--seed', '3']);
    const { baseUrl } = jsonOf<{ baseUrl: string }>(await caller(mcp.client)('mock_info'));
    const exited = new Promise<number | null>((done) => mcp.child().once('exit', (code) => done(code)));
    mcp.child().kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${baseUrl}/__admin/health`)).rejects.toThrow();
    await mcp.client.close();
  });
});

describe('shortlink-mock mcp --base-url', () => {
  it('drives a running mock, with its admin token', async () => {
    const mock = await startMock({ adminToken: 'stdio-token', log: () => {} });
    const mcp = await stdioMcp(['--base-url', mock.url, '--admin-token', 'stdio-token']);
    try {
      expect(jsonOf(await caller(mcp.client)('use_scenario', { name: 'not-found' }))).toEqual({ active: 'not-found' });
      expect((await mock.health()).scenario).toBe('not-found');
      expect(jsonOf(await caller(mcp.client)('mock_info'))).toMatchObject({ baseUrl: mock.url, proxy: expect.stringMatching(/^unknown/) });
    } finally {
      await mcp.client.close();
      await mock.stop();
    }
  });

  it('an unreachable mock makes each tool an error naming it; the server goes on, and exits when stdin closes', async () => {
    const mcp = await stdioMcp(['--base-url', 'http://127.0.0.1:9']);
    const result = await caller(mcp.client)('mock_info');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/did not answer.*127\.0\.0\.1:9/);
    expect((await mcp.client.listTools()).tools.length).toBe(11);
    const exited = new Promise<number | null>((done) => mcp.child().once('exit', (code) => done(code)));
    await mcp.client.close();
    expect(await exited).toBe(0);
  });
});
