// Choosing a scenario, as tables: header over global, Prism's Prefer: code=, strict decoding (an
// unknown name or code is a 400 that lists the known ones), the admin API, authentication first,
// request validation before the scenario, `times`, and matching on header, body and account.
// Then the pure core: decide, matches, preferredCode.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Test } from 'supertest';
import { ApiError } from '../../src/core/errors.js';
import { preferredCode } from '../../src/core/scenario-choice.js';
import { decide, matches, RuleCounters, type RequestFacts, type RuleMatch, type Scenario } from '../../src/core/scenarios.js';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { builtInScenarios, createTestApp, DEMO, loadScenarios, OTHER, type TestApp } from '../helpers/test-app.js';

type H = Record<string, string>;
const BUILT_INS = ['flaky-network', 'invalid-request', 'link-limit-reached', 'not-found', 'slow', 'unauthorized'];
const KNOWN = new RegExp(`known scenarios: ${BUILT_INS.join(', ')}`);
const CREATE = { destinationUrl: 'https://example.com/choice', domain: 'short.test', tags: [] };

const linkOf = async (t: TestApp, key: string): Promise<string> => {
  const [link] = await t.linksOf(key);
  if (!link) throw new Error(`no link of ${key}`);
  return link.id;
};
const withHeaders = (request: Test, headers: H): Test => Object.entries(headers).reduce((r, [name, value]) => r.set(name, value), request);
const create = (t: TestApp, headers: H, body: object = CREATE): Test => withHeaders(t.request.post('/links'), { 'x-api-key': DEMO, ...headers }).send(body);
const del = (t: TestApp, id: string, headers: H): Test => withHeaders(t.request.delete(`/links/${id}`), { 'x-api-key': DEMO, ...headers });
const setGlobal = (t: TestApp, name: unknown): Test => t.request.put('/__admin/scenario').send({ name });

interface ChoiceRow { name: string; global: string | null; headers: H; status: number; mentions?: RegExp; code?: string }
interface AuthRow { name: string; headers: H; body?: object; status: number; mentions?: RegExp }

describe('which scenario shapes a createLink', () => {
  test.each<ChoiceRow>([
    { name: 'nothing chosen: normal', global: null, headers: {}, status: 201 },
    { name: 'global only', global: 'not-found', headers: {}, status: 404 },
    { name: 'header only', global: null, headers: { 'x-mock-scenario': 'not-found' }, status: 404 },
    { name: 'header over global', global: 'not-found', headers: { 'x-mock-scenario': 'unauthorized' }, status: 401 },
    { name: 'header scenario that does not cover the op: normal, not global', global: 'not-found', headers: { 'x-mock-scenario': 'slow' }, status: 201 },
    // The body says what forced it: the Prefer header, not a scenario nobody set.
    { name: 'Prefer code=404', global: null, headers: { prefer: 'code=404' }, status: 404, mentions: /not found \(forced by the Prefer header\)/ },
    { name: 'Prefer code=401', global: null, headers: { prefer: 'code=401' }, status: 401, mentions: /x-api-key.*\(forced by the Prefer header\)/ },
    { name: 'Prefer code=400', global: null, headers: { prefer: 'code=400' }, status: 400, mentions: /invalid \(forced by the Prefer header\)/ },
    { name: 'Prefer code=201: the normal answer', global: null, headers: { prefer: 'code=201' }, status: 201 },
    { name: 'Prefer without code is ignored', global: null, headers: { prefer: 'dynamic=true' }, status: 201 },
    { name: 'Prefer over global', global: 'not-found', headers: { prefer: 'code=401' }, status: 401 },
    { name: 'x-mock-scenario over Prefer', global: null, headers: { 'x-mock-scenario': 'link-limit-reached', prefer: 'code=404' }, status: 400, code: 'LINK_LIMIT_REACHED' },
    { name: 'Prefer code=418: 400 listing the documented', global: null, headers: { prefer: 'code=418' }, status: 400, mentions: /code=418.*createLink.*201, 400, 401, 404/ },
    { name: 'Prefer code=abc: 400', global: null, headers: { prefer: 'code=abc' }, status: 400, mentions: /code=abc/ },
    { name: 'unknown x-mock-scenario: 400 listing names', global: null, headers: { 'x-mock-scenario': 'nope' }, status: 400, mentions: KNOWN },
    { name: 'unknown x-mock-scenario even with a global one', global: 'slow', headers: { 'x-mock-scenario': 'nope' }, status: 400, mentions: /unknown scenario 'nope'/ },
  ])('$name → $status', async ({ global, headers, status, mentions, code }) => {
    const t = await createTestApp({ sleep: async () => {} });
    if (global) await setGlobal(t, global).expect(200);
    const before = await t.data();
    const res = await create(t, headers);
    if (status === 201) return expectLink(res, 201);
    expectError(res, status, { ...(code ? { code } : {}), ...(mentions ? { mentions } : {}) });
    expect(await t.data()).toEqual(before);
  });

  test.each([
    ['code=400', 400, /code=400 is not documented for deleteLink; documented: 204, 401, 404/],
    ['code=200', 400, /documented: 204, 401, 404/],
    ['code=204', 204, undefined],
    ['code=404', 404, undefined],
  ] as const)('deleteLink with Prefer: %s → %i', async (prefer, status, mentions) => {
    const t = await createTestApp();
    const id = await linkOf(t, DEMO);
    const res = await del(t, id, { prefer });
    if (status === 204) return expect(res.status).toBe(204);
    expectError(res, status, mentions ? { mentions } : {});
    expect((await t.data()).links.get(id)).toBeDefined();
  });

  test('a browser may send x-mock-scenario and Prefer (CORS preflight allows them)', async () => {
    const t = await createTestApp();
    const res = await t.request.options('/links').set({ origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key,x-mock-scenario,prefer' });
    expect(res.status).toBeLessThan(300);
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toMatch(/(?=.*x-mock-scenario)(?=.*prefer)/);
  });

  test('the mock option `scenario` (--scenario / MOCK_SCENARIO) sets the global one from the start', async () => {
    const t = await createTestApp({ scenario: 'not-found' });
    expectError(await create(t, {}), 404);
    expect((await t.request.get('/__admin/scenarios')).body).toMatchObject({ active: 'not-found' });
  });
});

describe('admin API', () => {
  test.each([
    [{ name: 'nope' }, KNOWN],
    [{}, /name/],
    [{ name: 5 }, /name|'5'/],
    [{ name: ['not-found'] }, /name/],
  ])('PUT /__admin/scenario %j → 400 Error, active one unchanged', async (body, mentions) => {
    const t = await createTestApp();
    await setGlobal(t, 'slow').expect(200);
    expectError(await t.request.put('/__admin/scenario').send(body), 400, { mentions });
    expect((await t.request.get('/__admin/scenarios')).body).toMatchObject({ active: 'slow' });
  });

  test("a near miss gets a guess, worded as the flags' (PUT /__admin/scenario, a key's scenario, x-mock-scenario); a far one none", async () => {
    const t = await createTestApp();
    const guess = /unknown scenario 'slo' in .*; did you mean 'slow'\? \(known scenarios: flaky-network, .*\)$/;
    expectError(await setGlobal(t, 'slo'), 400, { mentions: guess });
    expectError(await t.request.put('/__admin/scenario').send({ name: 'slo', apiKey: DEMO }), 400, { mentions: guess });
    expectError(await create(t, { 'x-mock-scenario': 'slo' }), 400, { mentions: guess });
    expectError(await setGlobal(t, 'not-fund'), 400, { mentions: /did you mean 'not-found'\?/ });
    const far = await setGlobal(t, 'nope');
    expectError(far, 400, { mentions: KNOWN });
    expect((far.body as { errorDescription: string }).errorDescription).not.toMatch(/did you mean/);
  });

  test('GET /__admin/scenarios lists every built-in with its description and active flag; {"name": null} turns it off', async () => {
    const t = await createTestApp();
    const list = async () => (await t.request.get('/__admin/scenarios').expect(200)).body as { active: string | null; scenarios: { name: string; description: string; active: boolean }[] };
    const initial = await list();
    expect(initial.active).toBeNull();
    expect(initial.scenarios.map((s) => s.name)).toEqual(BUILT_INS);
    for (const s of initial.scenarios) {
      expect(s.description.length, s.name).toBeGreaterThan(10);
      expect(s.active).toBe(false);
    }
    await setGlobal(t, 'not-found').expect(200, { active: 'not-found' });
    const on = await list();
    expect(on.active).toBe('not-found');
    expect(on.scenarios.filter((s) => s.active).map((s) => s.name)).toEqual(['not-found']);
    expectError(await create(t, {}), 404);
    await setGlobal(t, null).expect(200, { active: null });
    expect((await list()).scenarios.some((s) => s.active)).toBe(false);
    expectLink(await create(t, {}), 201);
  });
});

describe('authentication first, then request validation, then the scenario', () => {
  const NORMAL_401 = /^The x-api-key header (is missing|names no account)$/;
  test.each<AuthRow>([
    { name: 'no key + not-found', headers: { 'x-mock-scenario': 'not-found' }, status: 401, mentions: NORMAL_401 },
    { name: 'unknown key + not-found', headers: { 'x-api-key': 'nobody', 'x-mock-scenario': 'not-found' }, status: 401, mentions: NORMAL_401 },
    { name: 'no key + unknown scenario', headers: { 'x-mock-scenario': 'nope' }, status: 401, mentions: NORMAL_401 },
    { name: 'no key + Prefer code=418', headers: { prefer: 'code=418' }, status: 401, mentions: NORMAL_401 },
    { name: 'valid key + unauthorized', headers: { 'x-api-key': DEMO, 'x-mock-scenario': 'unauthorized' }, status: 401, mentions: /forced/ },
    { name: 'invalid body + not-found: 400', headers: { 'x-api-key': DEMO, 'x-mock-scenario': 'not-found' }, body: { domain: 'short.test' }, status: 400, mentions: /destinationUrl/ },
    // The unauthorized scenario stands for a failed authentication, which comes before validation (D14).
    { name: 'valid key + invalid body + unauthorized: still 401', headers: { 'x-api-key': DEMO, 'x-mock-scenario': 'unauthorized' }, body: { domain: 'short.test' }, status: 401 },
  ])('$name → $status', async ({ headers, body, status, mentions }) => {
    const t = await createTestApp();
    const res = await withHeaders(t.request.post('/links'), headers).send(body ?? CREATE);
    expectError(res, status, mentions ? { mentions } : {});
  });
});

describe('custom scenarios: times and matching', () => {
  // Written as files and read by the real loader; the directory is gone once they are loaded.
  const dir = mkdtempSync(join(tmpdir(), 'slm-choice-'));
  writeFileSync(join(dir, 'twice.yaml'), 'name: twice\ndescription: two 404s\nrules:\n  - match: { operation: createLink }\n    error: not-found\n    times: 2\n');
  writeFileSync(join(dir, 'then401.yaml'), 'name: then401\ndescription: one 404, then 401s\nrules:\n  - match: { operation: createLink }\n    error: not-found\n    times: 1\n  - match: { operation: createLink }\n    error: unauthorized\n');
  writeFileSync(join(dir, 'then.yaml'), 'name: then\ndescription: one 404, then 400s\nrules:\n  - match: { operation: createLink }\n    error: not-found\n    times: 1\n  - match: { operation: createLink }\n    error: invalid-request\n');
  const picky = [
    { match: { operation: 'createLink', headers: { 'X-Tenant': 'blue' } }, error: 'not-found' },
    { match: { operation: 'createLink', body: { domain: 'go.acme.test' } }, error: 'invalid-request' },
    { match: { operation: ['updateLink', 'deleteLink'], account: OTHER }, error: 'not-found' },
  ];
  writeFileSync(join(dir, 'picky.json'), JSON.stringify({ name: 'picky', description: 'matches on a header, a body field, the account', rules: picky }));
  const custom = ((): Scenario[] => {
    try {
      return loadScenarios(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  const app = () => createTestApp({ scenarios: [...builtInScenarios, ...custom] });
  const statuses = async (t: TestApp, n: number, headers: H): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < n; i += 1) out.push((await create(t, headers)).status);
    return out;
  };

  test('times: 2 → exactly two forced answers, then the normal one; counters restart on PUT scenario and reset', async () => {
    const t = await app();
    const h = { 'x-mock-scenario': 'twice' };
    expect(await statuses(t, 3, h)).toEqual([404, 404, 201]);
    await setGlobal(t, null).expect(200);
    expect(await statuses(t, 3, h)).toEqual([404, 404, 201]);
    await t.request.post('/__admin/reset').expect(200);
    expect(await statuses(t, 3, h)).toEqual([404, 404, 201]);
    await setGlobal(t, 'twice').expect(200);
    expect(await statuses(t, 3, {})).toEqual([404, 404, 201]);
  });

  // scenario.schema.json: "the first rule that matches (and has not used up its times) shapes the answer".
  test.each([
    ['then', [404, 400, 400]],
    ['then401', [404, 401, 401]],
  ])('rules apply in order; a used-up rule falls through to the next (%s)', async (name, expected) => {
    expect(await statuses(await app(), 3, { 'x-mock-scenario': name })).toEqual(expected);
  });

  test.each<AuthRow>([
    { name: 'header matches (name case-insensitive)', headers: { 'x-tenant': 'blue' }, status: 404 },
    { name: 'header other value', headers: { 'x-tenant': 'red' }, status: 201 },
    { name: 'header absent', headers: {}, status: 201 },
    { name: 'body field matches', headers: {}, body: { ...CREATE, domain: 'go.acme.test' }, status: 400 },
    { name: 'body field other value', headers: {}, body: { ...CREATE, domain: 'short.test' }, status: 201 },
  ])('createLink, $name → $status', async ({ headers, body, status }) => {
    const res = await create(await app(), { 'x-mock-scenario': 'picky', ...headers }, body);
    if (status === 201) expectLink(res, 201);
    else expectError(res, status, { mentions: /forced/ });
  });

  test.each([
    [OTHER, 'deleteLink', 404],
    [DEMO, 'deleteLink', 204],
    [OTHER, 'updateLink', 404],
    [DEMO, 'updateLink', 200],
  ] as const)('as %s, %s (account rule for other-key) → %i', async (key, op, status) => {
    const t = await app();
    const id = await linkOf(t, key);
    const headers = { 'x-api-key': key, 'x-mock-scenario': 'picky' };
    const res = op === 'deleteLink' ? await del(t, id, headers) : await withHeaders(t.request.put(`/links/${id}`), headers).send({ tags: [] });
    if (status === 404) expectError(res, 404, { mentions: /forced/ });
    else expect(res.status).toBe(status);
  });
});

describe('core: preferredCode, matches, decide', () => {
  test.each([
    [undefined, undefined],
    ['', undefined],
    ['code=404', 404],
    ['CODE=401', 401],
    ['code="400"', 400],
    ['dynamic=true, code=404', 404],
    ['example=x; code=201', 201],
    ['dynamic=true', undefined],
    ['xcode=404', undefined],
  ])('preferredCode(%j) → %j', (prefer, code) => expect(preferredCode(prefer)).toBe(code));

  test.each(['code=abc', 'code=4040', 'code=40'])('preferredCode(%j) throws a 400 ApiError', (prefer) => {
    expect(() => preferredCode(prefer)).toThrow(ApiError);
    expect(() => preferredCode(prefer)).toThrow(/not an HTTP status/);
  });

  const facts: RequestFacts = { operationId: 'createLink', headers: { 'x-tenant': 'blue', multi: ['a', 'b'] }, body: { domain: 'go.acme.test', tags: [] }, apiKey: DEMO };
  test.each<[string, RuleMatch, boolean]>([
    ['*', { operations: '*' }, true],
    ['listed op', { operations: ['updateLink', 'createLink'] }, true],
    ['other op', { operations: ['deleteLink'] }, false],
    ['header value', { operations: '*', headers: { 'x-tenant': 'blue' } }, true],
    ['header other value', { operations: '*', headers: { 'x-tenant': 'red' } }, false],
    ['header missing', { operations: '*', headers: { 'x-other': 'blue' } }, false],
    ['repeated header joined', { operations: '*', headers: { multi: 'a, b' } }, true],
    ['body field', { operations: '*', body: { domain: 'go.acme.test' } }, true],
    ['body array field', { operations: '*', body: { tags: [] } }, true],
    ['body other value', { operations: '*', body: { domain: 'short.test' } }, false],
    ['body field absent', { operations: '*', body: { slug: 'x' } }, false],
    ['body field __proto__ the client did not send (issue 23)', { operations: '*', body: JSON.parse('{"__proto__":{}}') as Record<string, unknown> }, false],
    ['body field constructor the client did not send', { operations: '*', body: { constructor: null } }, false],
    ['account', { operations: '*', account: DEMO }, true],
    ['other account', { operations: '*', account: OTHER }, false],
    ['all at once', { operations: ['createLink'], headers: { 'x-tenant': 'blue' }, body: { domain: 'go.acme.test' }, account: DEMO }, true],
  ])('matches: %s → %s', (_name, match, expected) => expect(matches(match, facts)).toBe(expected));

  test('matches: a body field __proto__ the client did send', () => {
    expect(matches({ operations: '*', body: JSON.parse('{"__proto__":{"a":1}}') as Record<string, unknown> }, { ...facts, body: JSON.parse('{"__proto__":{"a":1}}') })).toBe(true);
  });

  test('matches: a body rule never matches a request without a body', () => {
    expect(matches({ operations: '*', body: { a: 1 } }, { ...facts, body: undefined })).toBe(false);
  });

  test('decide: first matching rule with uses left; delay from the random; pass when nothing matches', () => {
    const scenario: Scenario = {
      name: 'unit',
      description: 'unit',
      source: 'test',
      rules: [
        { match: { operations: ['deleteLink'] }, fault: 'no-response' },
        { match: { operations: ['createLink'] }, fault: 'connection-reset', times: 1, delay: { minMs: 10, maxMs: 20 } },
        { match: { operations: ['createLink'] }, respond: { status: 404, body: { errorDescription: 'x' } }, times: 1 },
        { match: { operations: '*' }, delay: { minMs: 5, maxMs: 5 } },
      ],
    };
    const counters = new RuleCounters();
    const asked: number[] = [];
    const random = (max: number): number => (asked.push(max), max - 1);
    expect(decide(scenario, facts, counters, random)).toEqual({ kind: 'fault', fault: 'connection-reset', delayMs: 20 });
    expect(asked).toEqual([11]);
    expect(decide(scenario, facts, counters, random)).toEqual({ kind: 'respond', delayMs: 0, response: { status: 404, body: { errorDescription: 'x' } } });
    expect(decide(scenario, facts, counters, random)).toEqual({ kind: 'pass', delayMs: 5 });
    expect(decide(scenario, { ...facts, operationId: 'deleteLink' }, counters, random)).toEqual({ kind: 'fault', fault: 'no-response', delayMs: 0 });
    expect(decide({ ...scenario, rules: [] }, facts, counters, random)).toEqual({ kind: 'pass', delayMs: 0 });
    counters.clear();
    expect(decide(scenario, facts, counters, () => 0)).toEqual({ kind: 'fault', fault: 'connection-reset', delayMs: 10 });
    expect(asked).toEqual([11]);
  });
});
