// The traffic state on Redis (D21): several instances, each with a connection of its own, on one
// Redis and a fresh prefix per test, are one mock: the global scenario, the `times` counters, the
// journal (and its live feed) and coverage are the same through any of them.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoverageTracker, MAX_TRACKED_KEYS, outcomeKey } from '../../src/core/coverage.js';
import { maskApiKey, type JournalEntry, type NewJournalEntry } from '../../src/core/journal.js';
import { ScenarioRegistry } from '../../src/core/scenario-registry.js';
import { decide, type Scenario } from '../../src/core/scenarios.js';
import type { TrafficState } from '../../src/core/traffic-state.js';
import { feedConnectionName } from '../../src/store/redis/redis-journal-feed.js';
import { freshPrefix, keysUnder, withRawClient } from '../helpers/redis-store.js';
import { RedisTrafficStates } from '../helpers/redis-traffic.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const WAIT_MS = 5_000;
const rule = (times?: number) => ({ match: { operations: '*' as const }, respond: { status: 404, body: { errorDescription: 'forced' } }, ...(times ? { times } : {}) });
const THRICE: Scenario = { name: 'thrice', description: 'd', source: 'test', rules: [rule(3)] };
const ALWAYS: Scenario = { name: 'always', description: 'd', source: 'test', rules: [rule()] };
const FACTS = { operationId: 'createLink', headers: {}, body: {} };

let url: string;
let prefix: string;
const states = new RedisTrafficStates();
let a: TrafficState;
let b: TrafficState;

beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(async () => {
  prefix = freshPrefix();
  a = (await states.open(url, prefix, 5)).state;
  b = (await states.open(url, prefix, 5)).state;
});
afterEach(() => states.closeAll());

const entry = (path: string): NewJournalEntry => ({
  time: '2026-01-01T00:00:00.000Z', method: 'POST', path, operationId: 'createLink', apiKey: 'demo***', accountId: 'acc_1',
  status: 201, durationMs: 1.5, scenario: null, fault: null, verdict: 'ok', requestBody: { path }, responseBody: null,
});

/** Listens on the state's feed until it has delivered `count` entries (bounded); resolves once it is listening. */
async function listen(state: TrafficState, count: number): Promise<{ entries: Promise<JournalEntry[]> }> {
  const seen: JournalEntry[] = [];
  const entries = new Promise<JournalEntry[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${seen.length} of ${count} entries arrived`)), WAIT_MS);
    const take = (entry: JournalEntry): void => {
      if (seen.push(entry) < count) return;
      clearTimeout(timer);
      state.journal.off('entry', take);
      resolve(seen);
    };
    state.journal.on('entry', take);
  });
  await state.journal.listening();
  return { entries };
}

describe('the global scenario and the times counters', () => {
  it('a scenario set through one instance is active on the other at once, and cleared for both through the other', async () => {
    const [onA, onB] = [new ScenarioRegistry([THRICE, ALWAYS], a.scenario), new ScenarioRegistry([THRICE, ALWAYS], b.scenario)];
    expect(await onB.active()).toBeUndefined();
    await onA.setActive('always', 'test');
    expect((await onB.active())?.name).toBe('always');
    await onB.setActive('thrice', 'test');
    expect(await onA.activeName()).toBe('thrice');
    await onB.setActive(null, 'test');
    expect(await onA.active()).toBeUndefined();
  });

  it('times: 3 fires exactly three times across two instances racing (20 choices at once)', async () => {
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => decide(THRICE, FACTS, (i % 2 ? a : b).scenario.counters, () => 0)));
    expect(outcomes.filter((outcome) => outcome.kind === 'respond')).toHaveLength(3);
    expect(await a.scenario.counters.hasUses(THRICE, 0, THRICE.rules[0]!)).toBe(false);
  });

  it('setting the global scenario starts the counters over for every instance; so does clearing them through one', async () => {
    const use = (state: TrafficState) => decide(THRICE, FACTS, state.scenario.counters, () => 0);
    for (let i = 0; i < 3; i++) expect(await use(a)).toMatchObject({ kind: 'respond' });
    expect(await use(b)).toEqual({ kind: 'pass', delayMs: 0 });
    await new ScenarioRegistry([THRICE], b.scenario).setActive('thrice', 'test');
    expect(await use(a)).toMatchObject({ kind: 'respond' });
    await b.scenario.counters.clear();
    for (let i = 0; i < 3; i++) expect(await use(i % 2 ? a : b)).toMatchObject({ kind: 'respond' });
    expect(await use(a)).toEqual({ kind: 'pass', delayMs: 0 });
  });

  it('before validation a forced 401 counts its uses on the shared counters too; other rules wait', async () => {
    const unauthorized: Scenario = { ...THRICE, name: 'once-401', rules: [{ ...rule(1), respond: { status: 401, body: { errorDescription: 'no' } } }] };
    expect(await decide(unauthorized, FACTS, a.scenario.counters, () => 0, 'before-validation')).toMatchObject({ kind: 'respond' });
    expect(await decide(unauthorized, FACTS, b.scenario.counters, () => 0, 'before-validation')).toEqual({ kind: 'pass', delayMs: 0 });
    expect(await decide(THRICE, FACTS, b.scenario.counters, () => 0, 'before-validation')).toEqual({ kind: 'pass', delayMs: 0 });
    expect(await b.scenario.counters.hasUses(THRICE, 0, THRICE.rules[0]!)).toBe(true);
  });

  it('a reload that lost the active scenario switches it off, unless another instance switched to another one meanwhile', async () => {
    const onA = new ScenarioRegistry([THRICE, ALWAYS], a.scenario);
    await onA.setActive('always', 'test');
    expect(await new ScenarioRegistry([ALWAYS], b.scenario).replace([THRICE])).toMatch(/'always' is no longer defined/);
    expect(await onA.activeName()).toBeNull();
    await onA.setActive('thrice', 'test');
    await b.scenario.dropActive('always');
    expect(await onA.activeName()).toBe('thrice');
  });
});

describe('scenarios for one API key', () => {
  it('set through one instance, they apply to that key on the other at once; other keys get the global one', async () => {
    const onA = new ScenarioRegistry([THRICE, ALWAYS], a.scenario);
    const onB = new ScenarioRegistry([THRICE, ALWAYS], b.scenario);
    await onA.setActive('always', 'test');
    await onA.setKeyScenario('suite-1', 'thrice', 'test');
    expect(await onB.activeFor('suite-1')).toEqual({ scenario: THRICE, key: 'suite-1' });
    expect(await onB.activeFor('suite-2')).toEqual({ scenario: ALWAYS });
    expect(await onB.keyScenarios()).toEqual({ 'suite-1': 'thrice' });
    await onB.setKeyScenario('suite-1', null, 'test');
    expect(await onA.activeFor('suite-1')).toEqual({ scenario: ALWAYS });
  });

  it("a request's key scenario and the global one are one command (one round trip)", async () => {
    const instance = await states.open(url, prefix, 5);
    const onC = new ScenarioRegistry([THRICE, ALWAYS], instance.state.scenario);
    await onC.setKeyScenario('suite-1', 'thrice', 'test');
    await onC.activeFor('suite-1'); // Redis knows the script from now on (a restarted one is sent its text once)
    const sent = vi.spyOn(instance.client, 'sendCommand');
    expect(await onC.activeFor('suite-1')).toEqual({ scenario: THRICE, key: 'suite-1' });
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it('each key counts its own uses across instances, apart from the global counters; setting a key again starts only its own over', async () => {
    const onA = new ScenarioRegistry([THRICE], a.scenario);
    for (const key of ['suite-1', 'suite-2']) await onA.setKeyScenario(key, 'thrice', 'test');
    const use = (key: string | undefined, i: number) => {
      const state = (i % 2 ? a : b).scenario;
      return decide(THRICE, FACTS, key === undefined ? state.counters : state.countersOf(key), () => 0);
    };
    const fired = async (key: string | undefined, n: number) =>
      (await Promise.all(Array.from({ length: n }, (_, i) => use(key, i)))).filter((outcome) => outcome.kind === 'respond').length;
    expect(await fired('suite-1', 10)).toBe(3);
    expect(await fired('suite-2', 10)).toBe(3);
    expect(await fired(undefined, 10)).toBe(3);
    await onA.setKeyScenario('suite-1', 'thrice', 'test');
    expect(await fired('suite-1', 10)).toBe(3);
    expect(await fired('suite-2', 10)).toBe(0);
    await b.scenario.clearCounters();
    expect(await fired('suite-2', 10)).toBe(3);
  });
});

describe('the journal', () => {
  it('entries added through both instances are listed by either, oldest first, capped at the size', async () => {
    const all = await listen(a, 8);
    for (let i = 1; i <= 8; i++) (i % 2 ? a : b).journal.add(entry(`/links/${i}`));
    const delivered = await all.entries;
    expect(delivered.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const listed = await a.journal.list();
    expect(listed).toEqual(delivered.slice(-5));
    expect(await b.journal.list()).toEqual(listed);
    expect(listed[0]).toEqual({ seq: 4, ...entry(listed[0]!.path) });
    expect(await b.journal.list({ limit: 2 })).toEqual(listed.slice(-2));
    expect(await b.journal.list({ account: 'demo-key' }, () => 'acc_2')).toEqual([]);
  });

  it('with a journal size of 0 nothing is listed, and the live feed still hears every entry', async () => {
    const none = (await states.open(url, prefix, 0)).state;
    const received = await listen(none, 2);
    a.journal.add(entry('/first'));
    await a.flush(); // two connections: /first is first only once it is in
    none.journal.add(entry('/second'));
    expect((await received.entries).map((e) => e.path)).toEqual(['/first', '/second']);
    expect(await none.journal.list()).toEqual([]);
    expect((await a.journal.list()).map((e) => e.path)).toEqual(['/first', '/second']);
  });

  it('the feed reports entries the stream lost before it read them (a jump in seq) as dropped', async () => {
    const received = await listen(a, 2);
    const dropped: number[] = [];
    a.journal.on('dropped', (count) => dropped.push(count));
    // As a burst longer than the stream keeps would leave it: seq 2 to 4 trimmed before the feed read them.
    await withRawClient(url, async (client) => {
      for (const seq of [1, 5]) await client.sendCommand(['XADD', `${prefix}traffic:journal`, '*', 'seq', String(seq), 'entry', JSON.stringify(entry(`/${seq}`))]);
    });
    expect((await received.entries).map((e) => e.seq)).toEqual([1, 5]);
    expect(dropped).toEqual([3]);
  });

  it('a stream opened on one instance receives the entries added through the other, in order', async () => {
    const received = await listen(b, 3);
    a.journal.add(entry('/one'));
    a.journal.add(entry('/two'));
    await a.flush(); // two connections: the order between them is the order they reach Redis
    b.journal.add(entry('/three'));
    expect((await received.entries).map((e) => [e.seq, e.path])).toEqual([[1, '/one'], [2, '/two'], [3, '/three']]);
  });

  it('the feed holds a connection of its own, named after the prefix, only while someone listens', async () => {
    const send = (): void => {};
    expect(await feedConnections()).toBe(0);
    a.journal.on('entry', send);
    a.journal.on('entry', send);
    await a.journal.listening();
    expect(await feedConnections()).toBe(1);
    a.journal.off('entry', send);
    expect(await feedConnections()).toBe(1);
    a.journal.off('entry', send);
    // Bounded: Redis drops a closed connection from its list as soon as it reads the close.
    for (let i = 0; i < 100 && (await feedConnections()) !== 0; i++) await a.journal.list();
    expect(await feedConnections()).toBe(0);
  });

  it('clearing through one instance clears it for all, and the feeds read on', async () => {
    let received = await listen(b, 2);
    a.journal.add(entry('/before'));
    b.journal.add(entry('/before'));
    await received.entries;
    const reading = await listen(b, 1);
    await a.journal.clear();
    expect(await b.journal.list()).toEqual([]);
    received = reading;
    a.journal.add(entry('/after'));
    expect((await received.entries).map((e) => [e.seq, e.path])).toEqual([[3, '/after']]);
    expect((await a.journal.list()).map((e) => e.path)).toEqual(['/after']);
  });
});

describe('coverage', () => {
  const created = { operationId: 'createLink', status: 201, code: null };
  const refused = { operationId: 'createLink', status: 401, code: null };
  const tracker = (state: TrafficState) => new CoverageTracker([created, refused], state.coverage);

  it('counts recorded on both instances are reported by either, in the order keys were first seen', async () => {
    tracker(a).record('key-1', 'acc_1', created);
    await a.flush(); // two connections: key-1 is first only once its count is in
    tracker(b).record('key-2', 'acc_2', refused);
    tracker(b).record('key-1', 'acc_1', created);
    tracker(a).record(null, null, refused);
    tracker(b).record('nobody', null, refused);
    await Promise.all([a.flush(), b.flush()]);
    const report = await tracker(a).report();
    expect(report).toEqual([
      { apiKey: maskApiKey('key-1'), accountId: 'acc_1', seen: [{ ...created, count: 2 }], missing: [refused] },
      { apiKey: maskApiKey('key-2'), accountId: 'acc_2', seen: [{ ...refused, count: 1 }], missing: [created] },
      { apiKey: null, accountId: null, seen: [{ ...refused, count: 2 }], missing: [], unauthenticated: { withoutKey: 1, unknownKey: 1 } },
    ]);
    expect(await tracker(b).report()).toEqual(report);
    expect(await tracker(b).report('key-2')).toEqual([report[1]]);
    expect(await tracker(b).report('key-3')).toEqual([]);
  });

  it(`racing instances never track more than MAX_TRACKED_KEYS keys, and keep counting those they track`, async () => {
    for (let i = 0; i < MAX_TRACKED_KEYS + 10; i++) tracker(i % 2 ? a : b).record(`key-${i}`, `acc_${i}`, created);
    await Promise.all([a.flush(), b.flush()]);
    const tracked = await tracker(a).report();
    expect(tracked).toHaveLength(MAX_TRACKED_KEYS);
    const first = (await a.coverage.read()).keys[0]!;
    tracker(b).record(first.apiKey, first.accountId, created);
    tracker(b).record('one-more', 'acc_x', created);
    await b.flush();
    expect((await a.coverage.read()).keys[0]?.counts).toEqual(new Map([[outcomeKey(created), 2]]));
    expect(await tracker(a).report('one-more')).toEqual([]);
  });

  it('clearing through one instance clears it for all', async () => {
    tracker(a).record('key-1', 'acc_1', created);
    tracker(b).record(null, null, refused);
    await Promise.all([a.flush(), b.flush()]);
    await tracker(b).clear();
    expect(await tracker(a).report()).toEqual([]);
    expect(await keysUnder(url, `${prefix}traffic:coverage`)).toEqual([]);
  });
});

/** Connections named as this test's journal feeds. */
async function feedConnections(): Promise<number> {
  const list = await withRawClient(url, (client) => client.sendCommand(['CLIENT', 'LIST']));
  return String(list).split('\n').filter((line) => line.includes(` name=${feedConnectionName(prefix)} `)).length;
}
