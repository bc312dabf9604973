// /__admin/mcp: the MCP server over Streamable HTTP inside a running mock, driven by the SDK's own
// Client: every tool and its effect on the mock, behind the admin API's guards (token, host
// allow-list, browser origin check), and its message bound under hostile input (the bound of
// concurrent calls: mcp-bounds.test.ts).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/toolkit/start-mock.js';
import { MCP_MAX_MESSAGE_BYTES } from '../../src/toolkit/mcp/limits.js';
import { caller, httpMcp, jsonOf } from './mcp-client.js';
import { expectHostileCallsAreToolErrors, expectMockInfo, expectScenarioAndJournal, expectScenarioTimes, expectToolList, expectVarietyAndReset } from './mcp-tools.js';

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };

/** One raw POST to /__admin/mcp, with headers fetch would not let us set (Host). */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/__admin/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('/__admin/mcp', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ log: () => {} });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('serves every tool with its effect on the mock', async () => {
    const client = await httpMcp(mock.url);
    try {
      await expectToolList((await client.listTools()).tools.map((tool) => tool.name));
      await expectMockInfo(caller(client), mock.url);
      await expectScenarioAndJournal(caller(client), mock.url);
      await expectScenarioTimes(caller(client), mock.url);
      await expectVarietyAndReset(caller(client), mock.url);
      await expectHostileCallsAreToolErrors(caller(client));
      expect((await client.readResource({ uri: 'shortlink-mock://docs/mcp.md' })).contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    } finally {
      await client.close();
    }
  });

  it('refuses a page of another site (browser origin check) and a foreign Host (allow-list), as the admin API does', async () => {
    const foreign = await post(mock.url, JSON.stringify(INITIALIZE), { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    const host = await post(mock.url, JSON.stringify(INITIALIZE), { host: 'evil.example' });
    expect(host.status).toBe(403);
    const fine = await post(mock.url, JSON.stringify(INITIALIZE));
    expect(fine.status).toBe(200);
  });

  it(`refuses a message over ${MCP_MAX_MESSAGE_BYTES} bytes unread, and goes on`, async () => {
    const huge = JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(MCP_MAX_MESSAGE_BYTES) } });
    const refused = await post(mock.url, huge);
    expect(refused.status).toBe(413);
    expect((await post(mock.url, JSON.stringify(INITIALIZE))).status).toBe(200);
  });

  it('answers GET and DELETE with 405: the endpoint is stateless', async () => {
    const answer = await fetch(`${mock.url}/__admin/mcp`);
    expect(answer.status).toBe(405);
  });
});

describe('/__admin/mcp of a validating proxy', () => {
  let upstream: RunningMock;
  let proxy: RunningMock;
  beforeAll(async () => {
    upstream = await startMock({ log: () => {} });
    proxy = await startMock({ proxy: upstream.url, log: () => {} });
  });
  afterAll(async () => {
    await proxy?.stop();
    await upstream?.stop();
  });

  it('drift answers the drift report, with the client request that broke the contract; mock_info says it is a proxy', async () => {
    const bad = await fetch(`${proxy.url}/links`, { method: 'POST', headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'short.test', tags: [] }) });
    expect(bad.status).toBe(400);
    const client = await httpMcp(proxy.url);
    try {
      const report = jsonOf<{ distinct: number; groups: Array<{ operationId: string }> }>(await caller(client)('drift'));
      expect(report.distinct).toBeGreaterThan(0);
      expect(report.groups.map((group) => group.operationId)).toContain('createLink');
      expect(jsonOf(await caller(client)('mock_info'))).toHaveProperty('proxy', true);
    } finally {
      await client.close();
    }
  });
});

describe('/__admin/mcp with --admin-token', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ adminToken: 'mcp-token', log: () => {} });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('needs the token, and its tools send it to the admin API', async () => {
    expect((await post(mock.url, JSON.stringify(INITIALIZE))).status).toBe(401);
    const client = await httpMcp(mock.url, { 'x-admin-token': 'mcp-token' });
    try {
      expect(jsonOf(await caller(client)('use_scenario', { name: 'slow' }))).toEqual({ active: 'slow' });
      const health = (await (await fetch(`${mock.url}/__admin/health`, { headers: { 'x-admin-token': 'mcp-token' } })).json()) as { scenario: string };
      expect(health.scenario).toBe('slow');
    } finally {
      await client.close();
    }
  });
});
