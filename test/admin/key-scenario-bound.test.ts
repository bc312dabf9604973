// PUT /__admin/scenario with `apiKey`: at most MAX_KEY_SCENARIOS keys have a scenario of their own
// (a sweep set 7,000 keys of 150 characters, and GET /__admin/scenario grew past 1 MB). Past it a
// 400 naming the bound, nothing changed; a key that has one may change it; clearing one frees a
// place. Runs on every store (the unit-redis project too: the bound is checked in Redis's step).
import { describe, expect, it } from 'vitest';
import { MAX_KEY_SCENARIOS } from '../../src/core/traffic-state.js';
import { expectError } from '../helpers/contract-assert.js';
import { createTestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

/** A long key as the sweep sent them: 150 characters after its number. */
const keyOf = (i: number): string => `k${i}-${'x'.repeat(150)}`;

describe(`per-key scenarios, bounded at ${MAX_KEY_SCENARIOS} keys`, () => {
  it(`the key past ${MAX_KEY_SCENARIOS} is a 400 naming the bound; a set key may change; clearing one frees a place`, async () => {
    const t = await createTestApp();
    for (let i = 0; i < MAX_KEY_SCENARIOS; i += 1) await t.scenarios.setKeyScenario(keyOf(i), 'slow', 'test');
    const keys = async (): Promise<string[]> => {
      const res = await t.request.get('/__admin/scenario');
      expectAdminResponse(res, 'GET', '/__admin/scenario');
      return Object.keys((res.body as { byKey: Record<string, string> }).byKey);
    };

    const refused = await t.request.put('/__admin/scenario').send({ name: 'slow', apiKey: keyOf(MAX_KEY_SCENARIOS) });
    expectAdminResponse(refused, 'PUT', '/__admin/scenario');
    expectError(refused, 400);
    expect((refused.body as { errorDescription: string }).errorDescription).toContain(`at most ${MAX_KEY_SCENARIOS} API keys`);
    expect(await keys()).toHaveLength(MAX_KEY_SCENARIOS);
    expect(await keys()).not.toContain(keyOf(MAX_KEY_SCENARIOS));

    const again = await t.request.put('/__admin/scenario').send({ name: 'not-found', apiKey: keyOf(7), times: 2 });
    expect(again.status, again.text).toBe(200);
    expect((await t.request.get('/__admin/scenario')).body.byKey[keyOf(7)]).toBe('not-found');

    expect((await t.request.put('/__admin/scenario').send({ name: null, apiKey: keyOf(3) })).status).toBe(200);
    const freed = await t.request.put('/__admin/scenario').send({ name: 'slow', apiKey: keyOf(MAX_KEY_SCENARIOS) });
    expect(freed.status, freed.text).toBe(200);
    expect(await keys()).toHaveLength(MAX_KEY_SCENARIOS);
    expectError(await t.request.put('/__admin/scenario').send({ name: 'slow', apiKey: keyOf(MAX_KEY_SCENARIOS + 1) }), 400);
  });

  it('clearing the scenario of a key that has none is answered at the bound too (nothing to refuse)', async () => {
    const t = await createTestApp();
    for (let i = 0; i < MAX_KEY_SCENARIOS; i += 1) await t.scenarios.setKeyScenario(keyOf(i), 'slow', 'test');
    const cleared = await t.request.put('/__admin/scenario').send({ name: null, apiKey: 'never-set' });
    expect(cleared.status, cleared.text).toBe(200);
  });
});
