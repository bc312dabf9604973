// The toolkit's variety switches: startMock({ variety }), useVariety / clearVariety per key, the
// dimension list; and its types name exactly the admin contract's properties.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CONTRACT_FILE } from '../../src/contract/package-files.js';
import { startMock, type VarietySetting } from '../../src/index.js';

type Running = Awaited<ReturnType<typeof startMock>>;
const valid = { tags: [], destinationUrl: 'https://example.com/page', domain: 'short.test' };

describe('the toolkit', () => {
  let mock: Running;
  beforeAll(async () => {
    mock = await startMock({ variety: { seed: 4, only: ['createLink.clickCount:absent'] } });
  });
  afterAll(() => mock.stop());

  const create = async (apiKey: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${mock.url}/links`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(valid) });
    expect(res.status).toBe(201);
    return (await res.json()) as Record<string, unknown>;
  };

  it('starts a mock with variety on, its dimensions chosen', async () => {
    expect(await create(mock.apiKeys.demoKey)).not.toHaveProperty('clickCount');
    expect((await mock.variety()).global).toEqual({ seed: 4, apiKey: null, only: ['createLink.clickCount:absent'], except: null });
  });

  it('switches variety per key and off again', async () => {
    await mock.clearVariety();
    const set = await mock.useVariety(8, { apiKey: mock.apiKeys.otherKey, only: ['createLink.clickCount:max-safe'] });
    expect(set).toEqual({ seed: 8, apiKey: mock.apiKeys.otherKey, only: ['createLink.clickCount:max-safe'], except: null });
    expect((await create(mock.apiKeys.otherKey))['clickCount']).toBe(Number.MAX_SAFE_INTEGER);
    expect((await create(mock.apiKeys.demoKey))['clickCount']).toBe(0);
    await mock.clearVariety({ apiKey: mock.apiKeys.otherKey });
    expect(await mock.variety()).toEqual({ global: null, byKey: {} });
    const [entry] = await mock.journal({ limit: 1 });
    expect(entry?.variety).toBeNull();
  });

  it('passes a seed alone as --variety', async () => {
    const other = await startMock({ variety: { seed: 6 } });
    try {
      expect((await other.variety()).global).toEqual({ seed: 6, apiKey: null, only: null, except: null });
    } finally {
      await other.stop();
    }
  });

  it('lists the dimensions', async () => {
    expect((await mock.varietyDimensions()).map((dimension) => dimension.name)).toContain('createLink.clickCount:absent');
  });

  it('VarietySetting names exactly the properties of its schema', () => {
    const schemas = (parse(readFileSync(ADMIN_CONTRACT_FILE, 'utf8')) as { components: { schemas: Record<string, { properties: object }> } }).components.schemas;
    const keys: Record<keyof VarietySetting, true> = { seed: true, apiKey: true, only: true, except: true };
    expect(Object.keys(keys).sort()).toEqual(Object.keys(schemas['VarietySetting']?.properties ?? {}).sort());
  });
});
