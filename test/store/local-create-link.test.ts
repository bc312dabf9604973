// LinkStore.createLink on the process's own store (memory, and the file store's memory half): the
// cases every store shares (test/helpers/create-link-cases.ts). Redis runs them in redis-link-store.test.ts.
import { describe } from 'vitest';
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
