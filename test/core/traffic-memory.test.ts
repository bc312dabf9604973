// The in-memory traffic state answers at once: the hot path of a memory mock (global scenario,
// times counters, scenario choice and decision, recording) never waits for a promise, so it
// costs no microtask per request. Its behaviour is the existing tests' (test/admin, test/scenarios).
import { describe, expect, it } from 'vitest';
import { CoverageTracker } from '../../src/core/coverage.js';
import { chooseScenario } from '../../src/core/scenario-choice.js';
import { ScenarioRegistry } from '../../src/core/scenario-registry.js';
import { decide, type Scenario } from '../../src/core/scenarios.js';
import { createTrafficState } from '../../src/store/create-traffic-state.js';

const ONCE: Scenario = { name: 'once', description: 'd', source: 'test', rules: [{ match: { operations: '*' }, respond: { status: 404, body: { errorDescription: 'x' } }, times: 1 }] };
const FACTS = { operationId: 'createLink', headers: {}, body: {} };

describe('createTrafficState({ kind: memory })', () => {
  it('the global scenario, its choice, the counters and the decision are plain values, not promises', () => {
    const state = createTrafficState({ kind: 'memory', journalSize: 2 });
    const registry = new ScenarioRegistry([ONCE], state.scenario);
    expect(registry.setActive('once', 'test')).toBeUndefined();
    expect(registry.active()).toBe(ONCE);
    expect(chooseScenario(registry, { operationId: 'createLink', documentedStatuses: () => [] })).toEqual({ scenario: ONCE });
    expect(chooseScenario(registry, { operationId: 'createLink', documentedStatuses: () => [], apiKey: 'k' })).toEqual({ scenario: ONCE });
    expect(decide(ONCE, FACTS, registry.counters, () => 0)).toEqual({ kind: 'respond', delayMs: 0, response: ONCE.rules[0]!.respond });
    expect(decide(ONCE, FACTS, registry.counters, () => 0)).toEqual({ kind: 'pass', delayMs: 0 });
    expect(registry.replace([])).toBe("the active scenario 'once' is no longer defined; no scenario is active now");
    expect(registry.activeName()).toBeNull();
  });

  it('a key scenario, its choice and its own counters are plain values too', () => {
    const state = createTrafficState({ kind: 'memory', journalSize: 2 });
    const registry = new ScenarioRegistry([ONCE], state.scenario);
    expect(registry.activeFor('k')).toBeUndefined();
    expect(registry.setKeyScenario('k', 'once', 'test')).toBeUndefined();
    const chosen = chooseScenario(registry, { operationId: 'createLink', documentedStatuses: () => [], apiKey: 'k' });
    expect(chosen).toEqual({ scenario: ONCE, key: 'k' });
    expect(chooseScenario(registry, { operationId: 'createLink', documentedStatuses: () => [], apiKey: 'other' })).toBeUndefined();
    const counters = registry.countersFor({ scenario: ONCE, key: 'k' });
    expect(decide(ONCE, FACTS, counters, () => 0)).toMatchObject({ kind: 'respond' });
    expect(decide(ONCE, FACTS, counters, () => 0)).toEqual({ kind: 'pass', delayMs: 0 });
    expect(decide(ONCE, FACTS, registry.counters, () => 0)).toMatchObject({ kind: 'respond' });
    expect(registry.keyScenarios()).toEqual({ k: 'once' });
    expect(registry.clearCounters()).toBeUndefined();
    expect(decide(ONCE, FACTS, registry.countersFor({ scenario: ONCE, key: 'k' }), () => 0)).toMatchObject({ kind: 'respond' });
  });

  it('the journal and coverage are read at once; flush and close have nothing to wait for', async () => {
    const state = createTrafficState({ kind: 'memory', journalSize: 2 });
    const documented = { operationId: 'deleteLink', status: 401, code: null };
    const coverage = new CoverageTracker([documented], state.coverage);
    coverage.record(null, null, documented);
    expect(coverage.report()).toEqual([{ apiKey: null, accountId: null, seen: [{ ...documented, count: 1 }], missing: [], unauthenticated: { withoutKey: 1, unknownKey: 0 } }]);
    for (const path of ['/a', '/b', '/c']) {
      state.journal.add({ time: '', method: 'GET', path, operationId: null, apiKey: null, accountId: null, status: 401, durationMs: 0, scenario: null, fault: null, verdict: 'ok', requestBody: null, responseBody: null });
    }
    expect(state.journal.list()).toMatchObject([{ seq: 2, path: '/b' }, { seq: 3, path: '/c' }]);
    await expect(state.flush()).resolves.toBeUndefined();
    await expect(state.close()).resolves.toBeUndefined();
  });
});
