// The validating proxy in front of a second mock, a server that keeps the contract: the whole
// contract suite passes through it, the upstream's answers come back unchanged, and no answer is
// flagged. The requests the suite sends off the contract on purpose are flagged on the client's
// side, and only those. Scenarios answer before the upstream is called; the admin API stays local.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEEP_ALIVE_TIMEOUT_MS } from '../../src/http/server.js';
import { runContract, startMock, type RunningMock } from '../../src/index.js';

let upstream: RunningMock;
let proxy: RunningMock;

beforeAll(async () => {
  upstream = await startMock({ seed: 7 });
  proxy = await startMock({ seed: 7, proxy: upstream.url, journalSize: 10_000 });
});

afterAll(async () => {
  await proxy?.stop();
  await upstream?.stop();
});

const createBody = JSON.stringify({ destinationUrl: 'https://example.com/a', domain: 'short.test', tags: [{ name: 'proxied' }] });
const json = { 'content-type': 'application/json' };

describe('in front of a mock that keeps the contract', () => {
  it('passes the whole contract suite through, and flags no answer of the upstream', async () => {
    await proxy.clearJournal();
    const report = await runContract({ baseUrl: proxy.url, apiKey: 'demo-key', otherApiKey: 'other-key', limitedApiKey: 'limited-key', fuzzRuns: 50, seed: 3 });
    const failures = report.results.flatMap((result) => (result.outcome.status === 'failed' ? [`${result.title}: ${result.outcome.reason}`] : []));
    expect(failures).toEqual([]);
    expect(report.counts.failed).toBe(0);
    expect(report.counts.passed).toBeGreaterThan(30);
    const entries = await proxy.journal();
    expect(entries.length).toBeGreaterThan(30);
    // Each answered by the upstream, or by a scenario (the suite forces LINK_LIMIT_REACHED with one when the server has it).
    expect(entries.filter((entry) => entry.scenario === null).every((entry) => typeof entry.upstream?.status === 'number')).toBe(true);
    expect(entries.filter((entry) => entry.scenario !== null).every((entry) => entry.upstream === undefined)).toBe(true);
    expect(entries.flatMap((entry) => entry.violations ?? []).filter((violation) => violation.side === 'response')).toEqual([]);
    // What is flagged is only what the suite sends off the contract on purpose, and the upstream refused each.
    const flagged = entries.filter((entry) => entry.violations?.length);
    expect(flagged.length).toBeGreaterThan(0);
    for (const entry of flagged) {
      expect(entry.verdict).toBe('invalid-request');
      expect([400, 401, 404, 405]).toContain(entry.status);
    }
    expect(entries.filter((entry) => !entry.violations?.length).every((entry) => entry.verdict === 'ok')).toBe(true);
  });

  it("gives the client the upstream's answer unchanged, with no violations header", async () => {
    const res = await fetch(`${proxy.url}/links`, { method: 'POST', headers: { ...json, 'x-api-key': 'demo-key' }, body: createBody });
    const body = (await res.json()) as { id: string; tags: { name: string }[] };
    expect(res.status).toBe(201);
    expect(res.headers.get('x-contract-violations')).toBeNull();
    expect(body.tags.map((tag) => tag.name)).toEqual(['proxied']);
    // The link is the upstream's: it is there, and the proxy's own data never saw it.
    expect((await upstream.links('demo-key')).map((link) => link.id)).toContain(body.id);
    expect((await proxy.links('demo-key')).map((link) => link.id)).not.toContain(body.id);
    const [last] = (await upstream.journal({ limit: 1 })).reverse();
    expect(last?.responseBody).toEqual(body);
  });

  it('forwards method, path, query, x-api-key and body; drops the mock-only headers', async () => {
    const created = (await (await fetch(`${upstream.url}/links`, { method: 'POST', headers: { ...json, 'x-api-key': 'other-key' }, body: createBody })).json()) as { id: string };
    const res = await fetch(`${proxy.url}/links/${created.id}?trace=1`, { method: 'PUT', headers: { ...json, 'x-api-key': 'other-key', prefer: 'respond-async' }, body: JSON.stringify({ destinationUrl: 'https://example.com/b' }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { destinationUrl: string }).destinationUrl).toBe('https://example.com/b');
    const [seen] = await upstream.journal({ limit: 1 });
    expect(seen).toMatchObject({ method: 'PUT', path: `/links/${created.id}?trace=1`, apiKey: 'othe*****', status: 200 });
  });

  it('answers a forced scenario itself, without calling the upstream', async () => {
    await upstream.clearJournal();
    const res = await fetch(`${proxy.url}/links`, { method: 'POST', headers: { ...json, 'x-api-key': 'demo-key', 'x-mock-scenario': 'link-limit-reached' }, body: createBody });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'LINK_LIMIT_REACHED' });
    expect(await upstream.journal()).toEqual([]);
    const [entry] = await proxy.journal({ limit: 1 });
    expect(entry).toMatchObject({ scenario: 'link-limit-reached', violations: [] });
    expect(entry?.upstream).toBeUndefined();
  });

  it("refuses an unknown scenario itself: the mock's own 400, journaled as mock-control with the body sent", async () => {
    await upstream.clearJournal();
    const res = await fetch(`${proxy.url}/links`, { method: 'POST', headers: { ...json, 'x-api-key': 'demo-key', 'x-mock-scenario': 'nope' }, body: createBody });
    expect(res.status).toBe(400);
    expect(await upstream.journal()).toEqual([]);
    const [entry] = await proxy.journal({ limit: 1 });
    expect(entry).toMatchObject({ operationId: 'createLink', status: 400, verdict: 'mock-control', scenario: null, requestBody: JSON.parse(createBody) });
  });

  it('keeps an idle connection open for 30 s: a test process frozen 5 s between two requests met a closed one (ECONNRESET)', async () => {
    const res = await fetch(`${proxy.url}/__admin/health`);
    expect(res.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBe(30_000);
  });

  it('keeps the admin API local: never forwarded', async () => {
    await upstream.clearJournal();
    const res = await fetch(`${proxy.url}/__admin/health`);
    expect(res.status).toBe(200);
    expect(await upstream.journal()).toEqual([]);
  });

  it('counts real outcomes as coverage, under the key the upstream accepted', async () => {
    await proxy.clearJournal();
    await fetch(`${proxy.url}/links/lnk_does_not_exist`, { method: 'DELETE', headers: { 'x-api-key': 'limited-key' } });
    const coverage = await proxy.coverage('limited-key');
    const seen = coverage.accounts.find((account) => account.apiKey?.startsWith('limi'))?.seen ?? [];
    expect(seen).toContainEqual(expect.objectContaining({ operationId: 'deleteLink', status: 404, code: null }));
  });

  it('forwards a path outside the contract and flags it, one rule for every such path', async () => {
    await proxy.clearViolations();
    for (const path of ['/links/abc/stats', '/v2/links']) {
      const res = await fetch(`${proxy.url}${path}`, { headers: { 'x-api-key': 'demo-key' } });
      expect(res.status).toBe(404); // the upstream's own answer
      expect(res.headers.get('x-contract-violations')).toBe('1');
    }
    const [group] = (await proxy.violations()).groups;
    expect(group).toMatchObject({ operationId: null, method: 'GET', status: 404 });
    expect(group?.violations).toEqual([expect.objectContaining({ side: 'request', rule: 'GET on a path the contract does not have', count: 2, example: expect.objectContaining({ path: '/links/abc/stats', detail: '/links/abc/stats' }) })]);
  });

  it('flags a request the contract refuses on the client side, and still forwards it', async () => {
    const res = await fetch(`${proxy.url}/links`, { method: 'POST', headers: { ...json, 'x-api-key': 'demo-key' }, body: JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [], colour: 'red' }) });
    expect(res.status).toBe(400); // the upstream's own answer
    expect(res.headers.get('x-contract-violations')).toBe('1');
    const [entry] = await proxy.journal({ limit: 1 });
    expect(entry).toMatchObject({ verdict: 'invalid-request', upstream: { status: 400 }, violations: [{ side: 'request', rule: 'request body: unknown field', detail: "'colour'" }] });
    // The drift report through the toolkit: the same violation, then nothing once cleared.
    const report = await proxy.violations();
    const group = report.groups.find((candidate) => candidate.operationId === 'createLink' && candidate.status === 400);
    expect(group?.violations).toContainEqual(expect.objectContaining({ side: 'request', rule: 'request body: unknown field', example: expect.objectContaining({ detail: "'colour'" }) }));
    await proxy.clearViolations();
    expect((await proxy.violations()).groups).toEqual([]);
  });
});
