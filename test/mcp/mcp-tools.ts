// Every tool called through an MCP client and its effect checked on the mock over plain HTTP: the
// same assertions for stdio (a mock of the CLI's own) and /__admin/mcp (a mock serving it).
import { expect } from 'vitest';
import { holdRefusingPort } from '../helpers/refusing-port.js';
import { jsonOf, textOf, TOOL_NAMES, type Call } from './mcp-client.js';

const createLink = (baseUrl: string, apiKey: string): Promise<Response> =>
  fetch(`${baseUrl}/links`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ destinationUrl: 'https://example.com/mcp', domain: 'short.test', tags: [] }) });

export async function expectToolList(names: string[]): Promise<void> {
  expect([...names].sort()).toEqual(TOOL_NAMES);
}

/** use_scenario, then a create is the scenario's answer; journal shows it with its verdict; clear_scenario ends it. */
export async function expectScenarioAndJournal(call: Call, baseUrl: string): Promise<void> {
  const account = jsonOf<{ apiKey: string }>(await call('create_account', { name: 'MCP test', linkLimit: 5 }));
  expect(jsonOf(await call('use_scenario', { name: 'link-limit-reached', apiKey: account.apiKey }))).toEqual({ active: 'link-limit-reached', apiKey: account.apiKey });
  const refused = await createLink(baseUrl, account.apiKey);
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { code?: string }).code).toBe('LINK_LIMIT_REACHED');
  const journal = jsonOf<{ entries: Array<{ status: number; operationId: string; verdict: string }> }>(await call('journal', { apiKey: account.apiKey }));
  expect(journal.entries[0]).toMatchObject({ status: 400, operationId: 'createLink', verdict: expect.any(String) });
  jsonOf(await call('clear_scenario', { apiKey: account.apiKey }));
  expect((await createLink(baseUrl, account.apiKey)).status).toBe(201);
  const coverage = jsonOf<{ accounts: Array<{ seen: Array<{ status: number }> }> }>(await call('coverage', { apiKey: account.apiKey }));
  expect(coverage.accounts[0]?.seen.map((outcome) => outcome.status).sort()).toEqual([201, 400]);
}

/** use_scenario with times: exactly that many forced answers for the key, then normal ones; a bad times is a tool error with the mock's words. */
export async function expectScenarioTimes(call: Call, baseUrl: string): Promise<void> {
  const account = jsonOf<{ apiKey: string }>(await call('create_account', { name: 'MCP times', linkLimit: 50 }));
  expect(jsonOf(await call('use_scenario', { name: 'link-limit-reached', apiKey: account.apiKey, times: 2 }))).toEqual({ active: 'link-limit-reached', apiKey: account.apiKey, timesLeft: 2 });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await createLink(baseUrl, account.apiKey)).status);
  expect(statuses).toEqual([400, 400, 201]);
  for (const [times, says] of [
    [0, /'times' must be >= 1|times/],
    [1.5, /times/],
    ['2', /times/],
  ] as const) {
    const refused = await call('use_scenario', { name: 'link-limit-reached', apiKey: account.apiKey, times });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(says);
  }
  expect((await createLink(baseUrl, account.apiKey)).status).toBe(201);
}

/** set_variety and clear_variety change GET /__admin/variety; reset brings the fixtures back. */
export async function expectVarietyAndReset(call: Call, baseUrl: string): Promise<void> {
  jsonOf(await call('set_variety', { seed: 7, apiKey: 'demo-key' }));
  const on = (await (await fetch(`${baseUrl}/__admin/variety`)).json()) as { byKey: Record<string, unknown> };
  expect(Object.keys(on.byKey)).toContain('demo-key');
  jsonOf(await call('clear_variety', { apiKey: 'demo-key' }));
  const off = (await (await fetch(`${baseUrl}/__admin/variety`)).json()) as { byKey: Record<string, unknown> };
  expect(off.byKey).toEqual({});
  expect(jsonOf(await call('reset'))).toMatchObject({ status: 'reset' });
}

/** mock_info names the mock, the contract, the demo keys and the scenarios. */
export async function expectMockInfo(call: Call, baseUrl: string): Promise<void> {
  const info = jsonOf<{ baseUrl: string; contract: { title: string }; demoAccounts: Array<{ apiKey: string }>; scenarios: { available: Array<{ name: string }> } }>(await call('mock_info'));
  expect(info.baseUrl).toBe(baseUrl);
  expect(info.contract.title).toBe('Short-Link Management API');
  expect(info.demoAccounts.map((account) => account.apiKey)).toContain('demo-key');
  expect(info.scenarios.available.map((scenario) => scenario.name)).toContain('link-limit-reached');
}

/** Hostile calls: each a tool error with the reason (check_contract of a closed port among them), and the server still answers. */
export async function expectHostileCallsAreToolErrors(call: Call): Promise<void> {
  const unknownScenario = await call('use_scenario', { name: 'link-limit-reachd' });
  expect(unknownScenario.isError).toBe(true);
  expect(textOf(unknownScenario)).toMatch(/did you mean 'link-limit-reached'/);
  const wrongType = await call('create_account', { linkLimit: 'many' });
  expect(wrongType.isError).toBe(true);
  expect(textOf(wrongType)).toMatch(/linkLimit/);
  const unknownTool = await call('no_such_tool');
  expect(unknownTool.isError).toBe(true);
  expect(textOf(unknownTool)).toMatch(/no_such_tool/);
  const notProxy = await call('drift');
  expect(notProxy.isError).toBe(true);
  expect(textOf(notProxy)).toMatch(/not a proxy/);
  const closed = await holdRefusingPort();
  try {
    const unreachable = await call('check_contract', { baseUrl: closed.url, apiKey: 'demo-key' });
    expect(unreachable.isError).toBe(true);
    expect(textOf(unreachable)).toBe(`check_contract: cannot reach ${closed.url}: no answer: fetch failed (ECONNREFUSED)`);
  } finally {
    await closed.release();
  }
  expect(jsonOf(await call('mock_info'))).toHaveProperty('baseUrl');
}
