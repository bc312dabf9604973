// Issue 40: the page read of the store of one process (linkPageOf, from the index per account in
// MockState): the cases every store shares (test/helpers/link-page-cases.ts).
import { describe } from 'vitest';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { linkPageCases } from '../helpers/link-page-cases.js';

describe('the page read of the store of one process', () => {
  linkPageCases(async (data) => new LocalLinkStore(data, async () => undefined, ':memory:'), 200);
});
