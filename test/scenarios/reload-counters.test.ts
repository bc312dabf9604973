// A reload (--watch) that changes a rule starts that rule's `times` counter over, for the global
// counters and every key's; a rule whose content is the same as before keeps its count, so an
// edit to one rule never re-arms the others. Runs on every store (memory and Redis).
import { beforeEach, describe, expect, it } from 'vitest';
import { BUILT_IN_ERRORS } from '../../src/core/builtin-errors.js';
import type { Scenario, ScenarioRule } from '../../src/core/scenarios.js';
import { builtInScenarios, createTestApp, DEMO, OTHER, type TestApp } from '../helpers/test-app.js';

const ruleFor = (header: string, error: 'not-found' | 'link-limit-reached'): ScenarioRule => ({
  match: { operations: ['createLink'], headers: { 'x-rule': header } },
  respond: BUILT_IN_ERRORS[error],
  times: 1,
});
/** Two rules, each once: `a` answers 404, `b` LINK_LIMIT_REACHED. A copy each time, as a reload reads the files anew. */
const once = (aError: 'not-found' | 'link-limit-reached' = 'not-found'): Scenario => ({
  name: 'once',
  description: 'Each rule fires once.',
  source: 'test',
  rules: [ruleFor('a', aError), ruleFor('b', 'link-limit-reached')],
});
const CREATE = { destinationUrl: 'https://example.com/reload', domain: 'short.test', tags: [] };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ scenarios: [...builtInScenarios, once()] });
  const res = await t.request.put('/__admin/scenario').send({ name: 'once', apiKey: OTHER });
  expect(res.status).toBe(200);
});

/** The status of a create that rule `rule` matches: by x-mock-scenario (global counters) or by the key's own scenario. */
async function create(rule: 'a' | 'b', counters: 'global' | 'key'): Promise<number> {
  const headers = counters === 'global' ? { 'x-api-key': DEMO, 'x-mock-scenario': 'once' } : { 'x-api-key': OTHER };
  return (await t.request.post('/links').set(headers).set('x-rule', rule).send(CREATE)).status;
}

async function useUpEveryRule(): Promise<void> {
  for (const counters of ['global', 'key'] as const) {
    expect([await create('a', counters), await create('b', counters)]).toEqual([404, 400]);
    expect([await create('a', counters), await create('b', counters)]).toEqual([201, 201]);
  }
}

describe('a reload and the `times` counters', () => {
  it('a reload that changes nothing keeps every count: used-up rules stay used up', async () => {
    await useUpEveryRule();
    expect(await t.scenarios.replace([...builtInScenarios, once()])).toBeUndefined();
    for (const counters of ['global', 'key'] as const) expect([await create('a', counters), await create('b', counters)]).toEqual([201, 201]);
  });

  it('a changed rule starts over, globally and for every key; the unchanged rule beside it keeps its count', async () => {
    await useUpEveryRule();
    const notes = await t.scenarios.replace([...builtInScenarios, once('link-limit-reached')]);
    for (const counters of ['global', 'key'] as const) {
      expect([await create('a', counters), await create('b', counters)]).toEqual([400, 201]);
      expect(await create('a', counters)).toBe(201);
    }
    // The watcher logs it: `times` start over for the edited rules, named as load errors name them.
    expect(notes).toMatch(/'once' rule 1/);
    expect(notes).not.toMatch(/rule 2/);
  });

  it('a scenario removed by one reload and restored by the next starts over', async () => {
    await useUpEveryRule();
    await t.scenarios.replace(builtInScenarios);
    await t.scenarios.replace([...builtInScenarios, once()]);
    // The key's scenario was not listed while the file was gone; it is set again, as a user would.
    expect((await t.request.put('/__admin/scenario').send({ name: 'once', apiKey: OTHER })).status).toBe(200);
    expect([await create('a', 'global'), await create('b', 'global')]).toEqual([404, 400]);
  });
});
