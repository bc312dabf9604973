// Issue 23 (10d): two provider-state set-ups at once that put one link id on two accounts: one
// wins, the other is a 409 Error object that changes nothing, never a 500. Made deterministic by a
// store whose creates wait until both set-ups have decided theirs (as two requests on Redis, or on
// a file store between two awaits, can interleave).
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import { ApiError } from '../../src/core/errors.js';
import { LinkService } from '../../src/core/links.js';
import { setUpProviderStates } from '../../src/core/provider-states.js';
import { cryptoRandomInt } from '../../src/core/random.js';
import type { LinkStore } from '../../src/core/link-store.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { DEMO, fixtures, OTHER, TEST_SEED } from '../helpers/test-app.js';

/** The store with every createLink held until `parties` of them are waiting. */
function gatedStore(store: LinkStore, parties: number): LinkStore {
  const waiting: Array<() => void> = [];
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (name !== 'createLink' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length >= parties) for (const release of waiting.splice(0)) release();
        });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('provider states racing for one link id', () => {
  it.each([
    ['the same slug', { slug: 'raced-slug' }],
    ['slugs of their own', {}],
  ])('%s: one set-up wins, the other is a 409, and the link is the winner\'s', async (_what, params) => {
    const store = new LocalLinkStore(buildSeed(TEST_SEED, fixtures), () => Promise.resolve(), ':memory:');
    const service = new LinkService({ store: gatedStore(store, 2), random: cryptoRandomInt, now: () => new Date('2026-11-22T00:00:00Z') });
    const deps = { service, random: cryptoRandomInt, seedAccount: () => Promise.reject(new Error('no new account here')) };
    const id = 'lnk_raced0000000001';
    const outcomes = await Promise.allSettled([DEMO, OTHER].map((key) => setUpProviderStates(deps, [`a link ${id} exists for the account of ${key}`], params)));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(ApiError);
    expect(refused[0]).toMatchObject({ status: 409, errorDescription: expect.stringMatching(new RegExp(`${id}.*another provider-state set-up`)) });
    const winner = outcomes[0]!.status === 'fulfilled' ? DEMO : OTHER;
    expect((await store.linkById(id))?.accountId).toBe((await store.accountByKey(winner))?.id);
  });
});
