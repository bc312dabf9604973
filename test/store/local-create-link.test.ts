// LinkStore.createLink on the process's own store (memory, and the file store's memory half): the
// cases every store shares (test/helpers/create-link-cases.ts). Redis runs them in redis-link-store.test.ts.
import { createHook } from 'node:async_hooks';
import { describe, expect, test } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { createLinkCases } from '../helpers/create-link-cases.js';
import { copyData } from '../../src/core/link-table.js';

const spec = readFixtureSpec();

describe('createLink on the local store', () => {
  createLinkCases(async () => {
    const data = buildSeed(1234, spec);
    return { store: new LocalLinkStore(copyData(data), async () => undefined, ':memory:'), data };
  });
});

describe('createLink on the local store, its cost', () => {
  // Not an async function (bench/create-cost.md, eighth pass): with no replace being written, a
  // create's promises are the write's own (persist), writeLink's reaction and the outcome's; the
  // async function made one more and a resumption (4 here before).
  test('a create with no replace being written makes three promises in the caller\'s turn, and its link is in memory by then', async () => {
    const data = buildSeed(1234, spec);
    const store = new LocalLinkStore(copyData(data), () => Promise.resolve(), ':memory:');
    const demo = data.accounts.find((account) => account.apiKey === 'demo-key')!;
    const link = { id: 'lnk_CREATE0000000000', accountId: demo.id, domainId: data.defaultDomain.id, slug: 'created-here', destinationUrl: 'https://example.com/c', createdAt: '2026-12-01T10:00:00.000Z', clickCount: 0, tagIds: [] };
    let promises = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && (promises += 1)) });
    hook.enable();
    let created: Promise<unknown>;
    try {
      created = store.createLink({ link, linkLimit: demo.linkLimit, newTags: [] });
    } finally {
      hook.disable();
    }
    expect(store.linkById(link.id)).toEqual(link);
    expect(promises).toBe(3);
    expect(await created).toBe('stored');
  });
});
