// Every built-in scenario over HTTP (in-process, supertest), chosen per request with the
// x-mock-scenario header AND globally with PUT /__admin/scenario, for each operation: forced errors
// are Error objects that change nothing; operations a scenario does not cover answer normally.
import { describe, expect, test } from 'vitest';
import type { Response, Test } from 'supertest';
import type { RandomInt } from '../../src/core/random.js';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { builtInScenarios, createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

type Op = 'createLink' | 'updateLink' | 'deleteLink';
type Mode = 'header' | 'global';
const OPS: readonly Op[] = ['createLink', 'updateLink', 'deleteLink'];
const MODES: readonly Mode[] = ['header', 'global'];
const NEW_URL = 'https://example.com/changed-by-update';
const CREATE_BODY = { destinationUrl: 'https://example.com/new', domain: 'short.test', slug: 'scenario-made', tags: [] };

/** mulberry32: a tiny seeded PRNG. */
function prng(seed: number): RandomInt {
  let s = seed >>> 0;
  return (max) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * max);
  };
}

async function demoLinkId(t: TestApp): Promise<string> {
  const [link] = await t.linksOf(DEMO);
  if (!link) throw new Error('no seeded demo link');
  return link.id;
}

function send(t: TestApp, op: Op, id: string, headers: Record<string, string> = {}): Test {
  const request =
    op === 'createLink' ? t.request.post('/links') : op === 'updateLink' ? t.request.put(`/links/${id}`) : t.request.delete(`/links/${id}`);
  request.set('x-api-key', DEMO);
  for (const [name, value] of Object.entries(headers)) request.set(name, value);
  return op === 'createLink' ? request.send(CREATE_BODY) : op === 'updateLink' ? request.send({ destinationUrl: NEW_URL }) : request;
}

/** Sends op under the scenario, per request or globally (set just before). */
async function under(t: TestApp, mode: Mode, scenario: string, op: Op, id: string): Promise<Response> {
  if (mode === 'header') return send(t, op, id, { 'x-mock-scenario': scenario });
  const set = await t.request.put('/__admin/scenario').send({ name: scenario });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  expect(set.body).toEqual({ active: scenario });
  return send(t, op, id);
}

/** The normal, stateful answer of op: right status and body, and the store really changed. */
async function expectNormal(t: TestApp, op: Op, id: string, res: Response): Promise<void> {
  const links = (await t.data()).links;
  if (op === 'createLink') {
    expectLink(res, 201);
    const created = res.body as { id: string; slug: string };
    expect(created.slug).toBe('scenario-made');
    expect(links.get(created.id)?.destinationUrl).toBe(CREATE_BODY.destinationUrl);
  } else if (op === 'updateLink') {
    expectLink(res, 200);
    expect(links.get(id)?.destinationUrl).toBe(NEW_URL);
  } else {
    expect(res.status).toBe(204);
    expect(links.get(id)).toBeUndefined();
  }
}

const FORCED: readonly [scenario: string, op: Op, status: number, code?: string][] = [
  ['unauthorized', 'createLink', 401],
  ['unauthorized', 'updateLink', 401],
  ['unauthorized', 'deleteLink', 401],
  ['invalid-request', 'createLink', 400],
  ['invalid-request', 'updateLink', 400],
  ['not-found', 'createLink', 404],
  ['not-found', 'updateLink', 404],
  ['not-found', 'deleteLink', 404],
  ['link-limit-reached', 'createLink', 400, 'LINK_LIMIT_REACHED'],
];

const UNCOVERED: readonly [scenario: string, op: Op][] = [
  ['invalid-request', 'deleteLink'],
  ['link-limit-reached', 'updateLink'],
  ['link-limit-reached', 'deleteLink'],
];

describe('built-in scenarios that force an error', () => {
  test.each(MODES.flatMap((mode) => FORCED.map(([scenario, op, status, code]) => [mode, scenario, op, status, code ?? ''] as const)))(
    '%s %s: %s answers %i %s and changes nothing',
    async (mode, scenario, op, status, code) => {
      const t = await createTestApp();
      const id = await demoLinkId(t);
      const before = await t.data();
      const res = await under(t, mode, scenario, op, id);
      expectError(res, status, { mentions: /forced by a mock scenario/, ...(code ? { code } : {}) });
      expect(await t.data()).toEqual(before);
    },
  );

  // The key sent is the demo account's: the forced 401 must not claim it names none (issue 37 C6).
  test.each([
    ['x-mock-scenario: unauthorized', { 'x-mock-scenario': 'unauthorized' }, 'a mock scenario'],
    ['Prefer: code=401', { prefer: 'code=401' }, 'the Prefer header'],
  ])('%s with a valid key: the 401 says it was forced, not that the key names no account', async (_name, headers, by) => {
    const t = await createTestApp();
    const res = await send(t, 'createLink', '', headers);
    expectError(res, 401);
    expect(res.body).toEqual({ errorDescription: `The request is refused as unauthenticated, whatever its x-api-key header names (forced by ${by})` });
  });

  test.each(MODES.flatMap((mode) => UNCOVERED.map((row) => [mode, ...row] as const)))(
    '%s %s: %s is not covered and answers normally',
    async (mode, scenario, op) => {
      const t = await createTestApp();
      const id = await demoLinkId(t);
      await expectNormal(t, op, id, await under(t, mode, scenario, op, id));
    },
  );

  test.each(MODES)('%s invalid-request: deleteLink of an unknown link is the normal 404 (not forced)', async (mode) => {
    const t = await createTestApp();
    const res = await under(t, mode, 'invalid-request', 'deleteLink', 'lnk_doesNotExist0000');
    expectError(res, 404, { mentions: /link 'lnk_doesNotExist0000' not found/ });
    expect((res.body as { errorDescription: string }).errorDescription).not.toMatch(/forced/);
  });

  test('the forced link-limit error is the same one a full account gets (400 + LINK_LIMIT_REACHED)', async () => {
    const t = await createTestApp();
    const forced = await send(t, 'createLink', '', { 'x-mock-scenario': 'link-limit-reached' });
    const real = await t.request.post('/links').set('x-api-key', 'limited-key').send(CREATE_BODY);
    expectError(forced, 400, { code: 'LINK_LIMIT_REACHED' });
    expectError(real, 400, { code: 'LINK_LIMIT_REACHED' });
  });
});

describe('slow: the normal stateful answer after a delay of 800..1500 ms (fake clock)', () => {
  test.each(MODES.flatMap((mode) => OPS.map((op) => [mode, op] as const)))('%s %s', async (mode, op) => {
    const slept: number[] = [];
    const t = await createTestApp({ sleep: async (ms) => void slept.push(ms), random: prng(7) });
    const id = await demoLinkId(t);
    const res = await under(t, mode, 'slow', op, id);
    await expectNormal(t, op, id, res);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThanOrEqual(800);
    expect(slept[0]).toBeLessThanOrEqual(1500);
  });

  test('delays are picked from the whole range by the seeded random, each within bounds', async () => {
    const slept: number[] = [];
    const t = await createTestApp({ sleep: async (ms) => void slept.push(ms), random: prng(42) });
    const id = await demoLinkId(t);
    for (let i = 0; i < 12; i += 1) expectLink(await send(t, 'updateLink', id, { 'x-mock-scenario': 'slow' }), 200);
    expect(slept).toHaveLength(12);
    for (const ms of slept) expect(ms >= 800 && ms <= 1500 && Number.isInteger(ms), `delay ${ms}`).toBe(true);
    expect(new Set(slept).size).toBeGreaterThan(1);
  });

  test('the answer (and the change) waits until the delay is over', async () => {
    let release: () => void = () => {};
    let sleeping: (ms: number) => void = () => {};
    const asleep = new Promise<number>((resolve) => (sleeping = resolve));
    const sleep = (ms: number): Promise<void> => {
      sleeping(ms);
      return new Promise<void>((resolve) => (release = resolve));
    };
    const t = await createTestApp({ sleep, random: prng(1) });
    const linksBefore = (await t.data()).links.size;
    let answered = false;
    const pending = send(t, 'createLink', '', { 'x-mock-scenario': 'slow' }).then((res) => ((answered = true), res));
    await asleep;
    expect(answered).toBe(false);
    expect([...(await t.data()).links.keys()]).toHaveLength(linksBefore);
    release();
    const res = await pending;
    expectLink(res, 201);
    expect([...(await t.data()).links.keys()]).toHaveLength(linksBefore + 1);
  });

  test('without a scenario there is no delay at all', async () => {
    const slept: number[] = [];
    const t = await createTestApp({ sleep: async (ms) => void slept.push(ms) });
    expectLink(await send(t, 'createLink', ''), 201);
    expect(slept).toEqual([]);
  });
});

describe('flaky-network: the first request of each operation is reset, the rest pass', () => {
  const outcome = (request: Test): Promise<Response | Error> => request.then((res) => res, (error: Error) => error);

  test.each(MODES)('%s', async (mode) => {
    const t = await createTestApp();
    const id = await demoLinkId(t);
    if (mode === 'global') await t.request.put('/__admin/scenario').send({ name: 'flaky-network' }).expect(200);
    const headers: Record<string, string> = mode === 'header' ? { 'x-mock-scenario': 'flaky-network' } : {};
    for (const op of OPS) {
      const before = await t.data();
      const first = await outcome(send(t, op, id, headers));
      expect(first).toBeInstanceOf(Error);
      expect(first).toMatchObject({ code: 'ECONNRESET' });
      expect(await t.data()).toEqual(before);
      await expectNormal(t, op, id, await send(t, op, id, headers));
    }
  });
});

test('the built-in set is exactly the six scenarios of the issue', () => {
  expect(builtInScenarios.map((s) => s.name).sort()).toEqual(['flaky-network', 'invalid-request', 'link-limit-reached', 'not-found', 'slow', 'unauthorized']);
});
