// x-mock-variety: SEED varies one request under its own seed, within the dimensions the key's own
// setting allows (its `only`/`except`), else the global setting's, else every dimension.
import { describe, expect, it } from 'vitest';
import { createTestApp, DEMO, OTHER } from '../helpers/test-app.js';

const valid = { tags: [{ name: 'b' }, { name: 'a' }], destinationUrl: 'https://example.com/page', domain: 'short.test' };
type App = Awaited<ReturnType<typeof createTestApp>>;
const usedBy = async (app: App): Promise<string[]> => {
  const { body } = await app.request.get('/__admin/requests?limit=1').expect(200);
  return ((body as { entries: { variety: { dimensions: string[] } | null }[] }).entries[0]?.variety?.dimensions ?? []).slice().sort();
};
const create = (app: App, key: string, seed: number) => app.request.post('/links').set('x-api-key', key).set('x-mock-variety', String(seed)).send(valid).expect(201);

describe('x-mock-variety within the setting that applies', () => {
  it("uses the key's own only: every seed varies exactly that dimension", async () => {
    const app = await createTestApp();
    await app.request.put('/__admin/variety').send({ seed: 1, apiKey: DEMO, only: ['createLink.clickCount:absent'] }).expect(200);
    for (const seed of [0, 7, 12, 2026]) {
      expect((await create(app, DEMO, seed)).body).not.toHaveProperty('clickCount');
      expect(await usedBy(app)).toEqual(['createLink.clickCount:absent']);
    }
  });

  it("uses the key's own except; another key falls back to the global setting's", async () => {
    const app = await createTestApp();
    const createLink = app.variety.catalogue.filter((d) => d.operationId === 'createLink' && d.kind === 'body').map((d) => d.name);
    await app.request.put('/__admin/variety').send({ seed: 1, apiKey: DEMO, except: createLink }).expect(200);
    await app.request.put('/__admin/variety').send({ seed: 1, only: ['createLink.clickCount:max-safe'] }).expect(200);
    for (const seed of [0, 7, 12, 2026, 99]) {
      await create(app, DEMO, seed);
      expect((await usedBy(app)).filter((name) => createLink.includes(name))).toEqual([]);
      expect((await create(app, OTHER, seed)).body.clickCount).toBe(Number.MAX_SAFE_INTEGER);
      expect(await usedBy(app)).toEqual(['createLink.clickCount:max-safe']);
    }
  });

  it('uses every dimension when nothing is set (its seed alone decides)', async () => {
    const app = await createTestApp();
    const seen = new Set<string>();
    for (let seed = 0; seed < 12; seed += 1) {
      await create(app, DEMO, seed);
      for (const name of await usedBy(app)) seen.add(name);
    }
    expect(seen.size).toBeGreaterThan(3);
  });
});
