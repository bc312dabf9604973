// The drift report's aggregate in memory: distinct by operation, method, status, side and rule;
// counted per exchange; one example (the first); times spanning what was seen; bounded.
import { describe, expect, it } from 'vitest';
import type { Violation } from '../../src/core/journal.js';
import { MemoryViolations, sightingsOf, violationField, violationKeyOf, type ViolationSource } from '../../src/core/violations.js';
import { createTrafficState } from '../../src/store/create-traffic-state.js';

const MISSING_ID: Violation = { side: 'response', rule: 'response body: must have required property id' };
const EXTRA_FIELD: Violation = { side: 'request', rule: 'request body: must NOT have additional properties' };

function exchange(at: number, violations: Violation[], overrides: Partial<ViolationSource> = {}): ViolationSource {
  return {
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, at)).toISOString(),
    method: 'POST',
    path: '/links',
    operationId: 'createLink',
    apiKey: 'demo*****',
    status: 201,
    requestBody: { at },
    responseBody: { at },
    violations,
    ...overrides,
  };
}

describe('MemoryViolations', () => {
  it('an empty report before any violation, and exchanges without violations add nothing', () => {
    const store = new MemoryViolations();
    store.record(exchange(1, []));
    store.record({ ...exchange(2, []), violations: undefined } as ViolationSource);
    expect(store.report()).toEqual({ distinct: 0, dropped: 0, groups: [] });
  });

  it('counts each distinct violation, keeps the first exchange as its example, and spans first and last seen', () => {
    const store = new MemoryViolations();
    store.record(exchange(5, [{ ...MISSING_ID, detail: 'first' }]));
    store.record(exchange(9, [{ ...MISSING_ID, detail: 'second' }]));
    store.record(exchange(3, [{ ...MISSING_ID, detail: 'late arrival, earlier time' }]));
    const { groups, distinct } = store.report();
    expect(distinct).toBe(1);
    expect(groups).toEqual([
      {
        operationId: 'createLink',
        method: 'POST',
        status: 201,
        violations: [
          {
            ...MISSING_ID,
            count: 3,
            firstSeen: '2026-01-01T00:00:03.000Z',
            lastSeen: '2026-01-01T00:00:09.000Z',
            example: { time: '2026-01-01T00:00:05.000Z', method: 'POST', path: '/links', apiKey: 'demo*****', status: 201, requestBody: { at: 5 }, responseBody: { at: 5 }, detail: 'first' },
          },
        ],
      },
    ]);
  });

  it('groups by operation, method and status; within a group each side and rule is its own row, in the order first seen', () => {
    const store = new MemoryViolations();
    store.record(exchange(1, [MISSING_ID, EXTRA_FIELD]));
    store.record(exchange(2, [MISSING_ID], { status: 200, operationId: 'updateLink', method: 'PATCH', path: '/links/l1' }));
    store.record(exchange(3, [{ side: 'request', rule: MISSING_ID.rule }]));
    store.record(exchange(4, [{ side: 'request', rule: 'path not in the contract' }], { operationId: null, method: 'GET', path: '/nowhere', status: null }));
    const report = store.report();
    expect(report.distinct).toBe(5);
    const rows = report.groups.map((group) => [group.operationId, group.method, group.status, group.violations.map((v) => `${v.side}: ${v.rule}`)]);
    expect(rows).toEqual([
      ['createLink', 'POST', 201, [`response: ${MISSING_ID.rule}`, `request: ${EXTRA_FIELD.rule}`, `request: ${MISSING_ID.rule}`]],
      ['updateLink', 'PATCH', 200, [`response: ${MISSING_ID.rule}`]],
      [null, 'GET', null, ['request: path not in the contract']],
    ]);
  });

  it('one exchange breaking a rule twice counts once, with its first detail as evidence', () => {
    const store = new MemoryViolations();
    store.record(exchange(1, [{ ...MISSING_ID, detail: 'a' }, { ...MISSING_ID, detail: 'b' }]));
    const [violation] = store.report().groups[0]?.violations ?? [];
    expect(violation).toMatchObject({ count: 1, example: { detail: 'a' } });
  });

  it('keeps at most `max` distinct violations; sightings of new ones past it are counted as dropped, known ones still counted', () => {
    const store = new MemoryViolations(2);
    store.record(exchange(1, [{ side: 'response', rule: 'r1' }, { side: 'response', rule: 'r2' }]));
    store.record(exchange(2, [{ side: 'response', rule: 'r3' }]));
    store.record(exchange(3, [{ side: 'response', rule: 'r3' }, { side: 'response', rule: 'r1' }]));
    const report = store.report();
    expect(report).toMatchObject({ distinct: 2, dropped: 2 });
    expect(report.groups[0]?.violations.map((v) => [v.rule, v.count])).toEqual([['r1', 2], ['r2', 1]]);
  });

  it('the bound is per side: client noise past it never hides a violation of the upstream (issue 23)', () => {
    const store = new MemoryViolations(3);
    store.record(exchange(1, Array.from({ length: 10 }, (_, i) => ({ side: 'request' as const, rule: `noise ${i}` }))));
    store.record(exchange(2, [MISSING_ID]));
    const report = store.report();
    expect(report).toMatchObject({ distinct: 4, dropped: 7 });
    expect(report.groups[0]?.violations.map((v) => `${v.side}: ${v.rule}`)).toEqual(['request: noise 0', 'request: noise 1', 'request: noise 2', `response: ${MISSING_ID.rule}`]);
  });

  it('reports one side alone, its dropped sightings its own (issue 25)', () => {
    const store = new MemoryViolations(2);
    store.record(exchange(1, Array.from({ length: 5 }, (_, i) => ({ side: 'request' as const, rule: `noise ${i}` }))));
    store.record(exchange(2, [MISSING_ID]));
    expect(store.report()).toMatchObject({ distinct: 3, dropped: 3 });
    const response = store.report('response');
    expect(response).toMatchObject({ distinct: 1, dropped: 0 });
    expect(response.groups.flatMap((group) => group.violations.map((v) => v.rule))).toEqual([MISSING_ID.rule]);
    expect(store.report('request')).toMatchObject({ distinct: 2, dropped: 3 });
    expect(store.report('both')).toEqual(store.report());
  });

  it('clear forgets everything, dropped included', () => {
    const store = new MemoryViolations(1);
    store.record(exchange(1, [{ side: 'response', rule: 'r1' }, { side: 'response', rule: 'r2' }]));
    store.clear();
    expect(store.report()).toEqual({ distinct: 0, dropped: 0, groups: [] });
  });
});

describe('sightings and fields', () => {
  it('a field is the key as JSON and reads back as the same key, whatever the rule text holds', () => {
    const key = { operationId: null, method: 'GET', status: null, side: 'request' as const, rule: 'quote " and [brackets], ' };
    expect(violationKeyOf(violationField(key))).toEqual(key);
  });

  it('an example carries no detail property when the violation gave none', () => {
    const [sighting] = sightingsOf(exchange(1, [MISSING_ID]));
    expect(sighting?.example).not.toHaveProperty('detail');
  });
});

it('the memory traffic state holds a violation store that answers at once', () => {
  const state = createTrafficState({ kind: 'memory', journalSize: 2 });
  state.violations.record(exchange(1, [MISSING_ID]));
  expect(state.violations.report()).toMatchObject({ distinct: 1 });
});
