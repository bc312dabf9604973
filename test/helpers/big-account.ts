// Issue 23 (10a): an account with 18,000 links on Redis, whose GET /__admin/links?account= once
// answered 500 (its 90,000 domain and tag reads, sent at once, ran past the command timeout). Two
// files use it: redis-big-account.test.ts bounds the first page's time and runs in the suite's
// tail, alone; redis-big-account-pages.test.ts reads every page, with no time bound, among the others.
import supertest from 'supertest';
import { afterAll, beforeAll } from 'vitest';
import type { MockData } from '../../src/core/model.js';
import { createMock, type Mock } from '../../src/process/mock.js';
import { openSharedState, sharedMockOptions } from '../../src/process/shared-state.js';
import { freshPrefix, seedData } from './redis-store.js';
import { builtInScenarios, contract, fixtures } from './test-app.js';
import { sharedRedisUrl } from './shared-redis.js';

export const BIG_ACCOUNT_LINKS = 18_000;

/** The seed with BIG_ACCOUNT_LINKS more links of demo-key's account, each with 5 of its tags. */
function bigAccount(): MockData {
  const data = seedData();
  const demo = data.accounts[0]!;
  const tagIds = Object.values(data.tags).filter((tag) => tag.accountId === demo.id).map((tag) => tag.id);
  for (let i = 0; i < BIG_ACCOUNT_LINKS; i += 1) {
    const id = `lnk_big${String(i).padStart(13, '0')}`;
    const tags = [0, 1, 2, 3, 4].map((j) => tagIds[(i + j) % tagIds.length]!);
    data.links.set(id, { id, accountId: demo.id, domainId: data.defaultDomain.id, slug: `big-${i}`, destinationUrl: `https://example.com/big/${i}`, createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), clickCount: 0, tagIds: [...new Set(tags)] });
  }
  return data;
}

export interface BigAccountMock {
  mock: Mock;
  request: supertest.Agent;
  /** How many links demo-key's account holds. */
  expected: number;
}

/** A mock on the run's shared Redis (a fresh prefix) whose demo-key account holds the big account's links. */
async function startBigAccountMock(): Promise<BigAccountMock> {
  const data = bigAccount();
  const expected = [...data.links.values()].filter((link) => link.accountId === data.accounts[0]!.id).length;
  const state = await openSharedState({ url: sharedRedisUrl(), prefix: freshPrefix(), journalSize: 100, reset: false, seed: async () => data, log: () => undefined });
  const mock = await createMock({ contract, fixtures, seed: 1234, version: 'test', scenarios: builtInScenarios, log: () => undefined, ...sharedMockOptions(state) });
  return { mock, request: supertest.agent(mock.app), expected };
}

/** The file's big-account mock, started before its tests and closed after them; read it inside a test. */
export function useBigAccountMock(): () => BigAccountMock {
  let big: BigAccountMock | undefined;
  beforeAll(async () => {
    big = await startBigAccountMock();
  }, 60_000);
  afterAll(() => big?.mock.close());
  return () => {
    if (!big) throw new Error('the big account mock did not start (see beforeAll)');
    return big;
  };
}
