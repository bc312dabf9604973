// Issue 23 (10a): the pages of GET /__admin/links?account= for an account with 18,000 links on
// Redis hold every link once, newest first. No time bound here, so it runs among the suite's other
// files, not in its tail (redis-big-account.test.ts holds the timed first page).
import { describe, expect, it } from 'vitest';
import type { Link } from '../../src/core/api-types.js';
import { MAX_LINKS_PER_PAGE } from '../../src/core/link-page.js';
import { BIG_ACCOUNT_LINKS, useBigAccountMock } from '../helpers/big-account.js';
import { DEMO } from '../helpers/test-app.js';

const big = useBigAccountMock();

describe(`an account with ${BIG_ACCOUNT_LINKS.toLocaleString('en')} links on Redis`, () => {
  it('its pages hold every link once, newest first', async () => {
    const { request, expected } = big();
    const ids: string[] = [];
    const createdAts: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page <= expected / MAX_LINKS_PER_PAGE + 1; page += 1) {
      const res = await request.get('/__admin/links').query({ account: DEMO, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      for (const link of (res.body as { links: Link[] }).links) {
        ids.push(link.id);
        createdAts.push(link.createdAt);
      }
      cursor = (res.body as { nextCursor?: string }).nextCursor;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    expect(ids).toHaveLength(expected);
    expect(new Set(ids).size).toBe(expected);
    expect(createdAts).toEqual([...createdAts].sort().reverse());
  }, 60_000);
});
