// Variety mode under hostile input: every input has a bound (README's Limits table), and past it a
// documented refusal or a documented fallback, never unbounded memory or work.
import express from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { GZIP_MAX_BYTES, sendInEnvelope } from '../../src/http/variety-envelope.js';
import type { ChosenVariety } from '../../src/http/variety.js';
import { MAX_KEY_SETTINGS, SEED_PLANS } from '../../src/variety/switch.js';
import { cpuMsOf } from '../helpers/own-time.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

const valid = { tags: [{ name: 'a' }], destinationUrl: 'https://example.com/page', domain: 'short.test' };

describe('variety under hostile input', () => {
  it('refuses an x-mock-variety of 10,000 digits, quoting only its start', async () => {
    const app = await createTestApp();
    const res = await app.request.post('/links').set('x-api-key', DEMO).set('x-mock-variety', '9'.repeat(10_000)).send(valid).expect(400);
    expect(res.body.errorDescription).toContain('(10000 characters)');
    expect(res.body.errorDescription.length).toBeLessThan(300);
  });

  // The bound is 2^53−1, the largest integer a JSON client holds exactly: 2^53 has 16 digits too,
  // and would be the same seed as 2^53+1 once read as a number (issue 37 B3).
  it('takes an x-mock-variety of 2^53−1 and refuses 2^53 with the documented 400', async () => {
    const app = await createTestApp();
    const taken = await app.request.post('/links').set('x-api-key', DEMO).set('x-mock-variety', '9007199254740991').send(valid).expect(201);
    expect(taken.body).toHaveProperty('id');
    const [entry] = (await app.request.get('/__admin/requests?limit=1').expect(200)).body.entries;
    expect(entry.variety).toMatchObject({ seed: 9007199254740991 });
    const before = await app.data();
    const refused = await app.request.post('/links').set('x-api-key', DEMO).set('x-mock-variety', '9007199254740992').send(valid).expect(400);
    expect(refused.body).toEqual({ errorDescription: "the x-mock-variety header must be a seed, a whole number from 0 to 2^53-1 (got '9007199254740992')" });
    expect(await app.data()).toEqual(before);
    const [refusal] = (await app.request.get('/__admin/requests?limit=1').expect(200)).body.entries;
    expect(refusal).toMatchObject({ status: 400, verdict: 'mock-control' });
  });

  it(`keeps at most ${SEED_PLANS} plans for x-mock-variety seeds, however many a client sends`, async () => {
    const app = await createTestApp();
    for (let seed = 0; seed < SEED_PLANS * 3; seed += 1) await app.request.post('/nowhere').set('x-mock-variety', String(seed)).expect(404);
    expect(app.variety.seedPlansKept).toBeGreaterThan(0);
    expect(app.variety.seedPlansKept).toBeLessThanOrEqual(SEED_PLANS);
  });

  it(`refuses a variety setting for a key past ${MAX_KEY_SETTINGS} keys; a key already set may change`, async () => {
    const app = await createTestApp();
    for (let i = 0; i < MAX_KEY_SETTINGS; i += 1) await app.variety.set({ seed: i, apiKey: `key-${i}` });
    const refused = await app.request.put('/__admin/variety').send({ seed: 1, apiKey: 'one-too-many' }).expect(400);
    expect(refused.body.errorDescription).toContain(`at most ${MAX_KEY_SETTINGS} API keys`);
    await app.request.put('/__admin/variety').send({ seed: 2, apiKey: 'key-7' }).expect(200);
    expect(Object.keys((await app.request.get('/__admin/variety').expect(200)).body.byKey)).toHaveLength(MAX_KEY_SETTINGS);
  });

  it('keeps each name once: 1,000 copies of a name in only/except hold no more memory than one', async () => {
    const app = await createTestApp();
    const copies = Array.from({ length: 1_000 }, () => 'createLink.clickCount:absent');
    const { body } = await app.request.put('/__admin/variety').send({ seed: 1, apiKey: DEMO, only: copies, except: copies }).expect(200);
    expect(body).toMatchObject({ only: ['createLink.clickCount:absent'], except: ['createLink.clickCount:absent'] });
  });

  it('refuses only/except of 1,000 unknown names of 200 characters each, quickly', async () => {
    const app = await createTestApp();
    const names = Array.from({ length: 1_000 }, (_, i) => `${'x'.repeat(195)}${String(i).padStart(5, '0')}`);
    // The CPU it costs this process (the app is in it), not wall time, which a loaded machine stretches.
    const { cpuMs } = await cpuMsOf(() => app.request.put('/__admin/variety').send({ seed: 1, except: names }).expect(400));
    expect(cpuMs).toBeLessThan(2_000);
    await app.request.put('/__admin/variety').send({ seed: 1, only: ['x'.repeat(201)] }).expect(400);
  });

  it(`gzips no body over ${GZIP_MAX_BYTES} bytes: sent as it is, the dimension not used`, async () => {
    const chosen: ChosenVariety = { seed: 1, plan: { seed: 1, body: [], envelope: { gzip: 'createLink.encoding:gzip' } }, used: [], bodyVaried: true };
    const text = JSON.stringify({ errorDescription: 'x'.repeat(GZIP_MAX_BYTES) });
    const app = express().get('/big', (_req, res) => sendInEnvelope(res, chosen, text));
    const res = await supertest(app).get('/big').set('accept-encoding', 'gzip').expect(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(text.length));
    expect(chosen.used).toEqual([]);
  });
});
