// A request's first reads on Redis: its scenario names (traffic state) and its key's account (link
// store) go as one script call on the store's connection (redis-link-reads.ts namesWithAccount),
// and the authentication of the same turn takes the account from it. Exactness first: each is as
// fresh as a read of its own sent at that moment, across instances and across a reset.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSharedState, type SharedState } from '../../src/process/shared-state.js';
import { freshPrefix, seedData } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

let url: string;
let prefix: string;
const states: SharedState[] = [];

beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(() => {
  prefix = freshPrefix();
});
afterEach(async () => {
  for (const state of states.splice(0)) {
    await state.traffic.close();
    await state.close();
  }
});

async function instance(): Promise<SharedState> {
  const state = await openSharedState({ url, prefix, journalSize: 10, reset: false, seed: async () => seedData(), log: () => undefined });
  states.push(state);
  return state;
}

/** What a request does first (src/http/authenticate.ts): the names, and in the same turn the account. */
async function firstReads(state: SharedState, apiKey: string) {
  const before = state.store.stats.commands;
  const names = state.traffic.scenario.activeNames(apiKey);
  const account = state.store.accountByKey(apiKey);
  const answers = { names: await names, account: await account };
  return { ...answers, commands: state.store.stats.commands - before };
}

describe('scenario names and the account: one script call', () => {
  it('answers both from one command on the store connection', async () => {
    const a = await instance();
    const read = await firstReads(a, 'demo-key');
    expect(read.commands).toBe(1);
    expect(read.account?.apiKey).toBe('demo-key');
    expect(read.names).toEqual({ global: null, key: null, globalCounted: false, keyCounted: false });
    // The names alone are that same one command: the account came with them, not on its own.
    const before = a.store.stats.commands;
    await a.traffic.scenario.activeNames('demo-key');
    expect(a.store.stats.commands - before).toBe(1);
  });

  it('an account read in a later turn is a read of its own (never an earlier answer)', async () => {
    const a = await instance();
    await a.traffic.scenario.activeNames('demo-key');
    const before = a.store.stats.commands;
    await a.store.accountByKey('demo-key');
    expect(a.store.stats.commands - before).toBe(1);
  });

  it('scenarios set with times: the same one command tells that a use must be taken (issue 41)', async () => {
    const a = await instance();
    await a.traffic.scenario.setActive('not-found', 4);
    await a.traffic.scenario.setKeyScenario('demo-key', 'slow', 2);
    const read = await firstReads(a, 'demo-key');
    expect(read.commands).toBe(1);
    expect(read.names).toEqual({ global: 'not-found', key: 'slow', globalCounted: true, keyCounted: true });
    expect(await a.traffic.scenario.timesLeft()).toEqual({ global: 4, byKey: { 'demo-key': 2 } });
    expect(await a.traffic.scenario.keyScenarios()).toEqual({ 'demo-key': 'slow' });
    expect(await a.traffic.scenario.activeName()).toBe('not-found');
    // A use of a name no longer set is refused; the last use clears the key's scenario; a reload's drop finds a counted name.
    expect(await a.traffic.scenario.takeUse('demo-key', 'not-found')).toBe(false);
    expect([await a.traffic.scenario.takeUse('demo-key', 'slow'), await a.traffic.scenario.takeUse('demo-key', 'slow'), await a.traffic.scenario.takeUse('demo-key', 'slow')]).toEqual([true, true, false]);
    expect(await a.traffic.scenario.keyScenarios()).toEqual({});
    await a.traffic.scenario.dropActive('not-found');
    expect(await a.traffic.scenario.activeName()).toBeNull();
  });

  it('an unknown key: no account, and the names still read', async () => {
    const a = await instance();
    await a.traffic.scenario.setKeyScenario('nobody-key', 'slow');
    const read = await firstReads(a, 'nobody-key');
    expect(read.account).toBeUndefined();
    expect(read.names).toEqual({ global: null, key: 'slow', globalCounted: false, keyCounted: false });
  });

  it('sees a scenario switch and a link limit set through another instance at its very next read', async () => {
    const [a, b] = [await instance(), await instance()];
    await firstReads(b, 'demo-key');
    await a.traffic.scenario.setActive('link-limit-reached');
    const demo = await a.store.accountByKey('demo-key');
    await a.store.setLinkLimit(demo!.id, 7);
    const read = await firstReads(b, 'demo-key');
    expect(read.names.global).toBe('link-limit-reached');
    expect(read.account?.linkLimit).toBe(7);
  });

  it('after a reset through another instance, answers the new data (the read moves to the new generation)', async () => {
    const [a, b] = [await instance(), await instance()];
    await firstReads(b, 'demo-key');
    const replaced = seedData(99);
    const demo = replaced.accounts.find((account) => account.apiKey === 'demo-key');
    demo!.linkLimit = 3;
    await a.store.replaceAll(replaced);
    const read = await firstReads(b, 'demo-key');
    expect(read.account?.linkLimit).toBe(3);
    expect(read.account?.id).toBe(demo!.id);
  });

  it('Redis gone: both reads fail with the store-unavailable error, none left unhandled', async () => {
    const a = await instance();
    states.splice(states.indexOf(a), 1);
    await a.traffic.close();
    await a.close();
    const names = a.traffic.scenario.activeNames('demo-key') as Promise<unknown>;
    const account = a.store.accountByKey('demo-key');
    await expect(names).rejects.toThrow(/^store unavailable: /);
    await expect(account).rejects.toThrow(/^store unavailable: /);
  });
});
