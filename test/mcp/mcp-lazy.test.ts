// /__admin/mcp costs nothing until it is asked: a mock started by the CLI, having answered API and
// admin requests, has loaded none of the MCP SDK or the tools; its first MCP request loads them.
// Traced through the ES module loader (test/helpers/module-trace.mjs), on the built CLI.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { startCli, type CliProcess } from '../helpers/cli-process.js';

const TRACE_HOOK = join(PACKAGE_ROOT, 'test', 'helpers', 'module-trace.mjs');
const MCP_MODULES = /\/node_modules\/@modelcontextprotocol\/|\/dist\/src\/toolkit\/mcp\/(?!lazy-endpoint)/;

describe('/__admin/mcp is loaded on its first request', () => {
  let dir: string;
  let cli: CliProcess;
  let trace: string;
  const loaded = (): string[] => readFileSync(trace, 'utf8').trim().split('\n').filter((url) => MCP_MODULES.test(url));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slm-mcp-lazy-'));
    trace = join(dir, 'modules.txt');
    cli = await startCli(['--db', ':memory:'], dir, { NODE_OPTIONS: `--import ${TRACE_HOOK}`, SLM_MODULE_TRACE: trace });
  });
  afterAll(async () => {
    await cli?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('API and admin requests load none of it; an MCP request does', async () => {
    const created = await fetch(`${cli.url}/links`, { method: 'POST', headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' }, body: JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] }) });
    expect(created.status).toBe(201);
    expect((await fetch(`${cli.url}/__admin/health`)).status).toBe(200);
    expect(loaded()).toEqual([]);
    const answer = await fetch(`${cli.url}/__admin/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lazy', version: '0' } } }),
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(((await answer.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('shortlink-mock');
    expect(loaded().length).toBeGreaterThan(0);
  });
});
