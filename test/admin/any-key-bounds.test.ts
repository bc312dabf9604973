// --accept-any-key, bounded (issue 23, item 9): the accounts unknown keys make are capped
// (--max-any-key-accounts), past it a 401 that says why; and a key's seeded account cannot be
// poisoned: its seeded slugs are a pure function of the key, so anyone could take them first,
// and then every request with that key answered 500. Taken slugs get other ones, never a 500.
// Runs on every store (the seeding is shared: src/process/account-for-key.ts).
import { describe, expect, it } from 'vitest';
import { buildAccountForKey } from '../../fixtures/seed.js';
import { expectError } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

/** A first use that creates nothing: a delete of a link that does not exist (404 once the key has an account). */
const touch = (app: TestApp, key: string) => app.request.delete('/links/lnk_0000000000000000').set('x-api-key', key);

describe('--max-any-key-accounts', () => {
  it('past the cap an unknown key is a 401 saying why and makes no account; known keys go on, and a reset makes room', async () => {
    const t = await createTestApp({ acceptAnyKey: true, maxAnyKeyAccounts: 4 });
    const fixtures = (await t.data()).accounts.length;
    expect(fixtures).toBe(3);
    expectError(await touch(t, 'first-new-key'), 404);
    const refused = await touch(t, 'second-new-key');
    expectError(refused, 401);
    expect((refused.body as { errorDescription: string }).errorDescription).toMatch(/--max-any-key-accounts.*4/);
    expect(await t.accountByKey('second-new-key')).toBeUndefined();
    expect((await t.data()).accounts).toHaveLength(4);
    expectError(await touch(t, 'first-new-key'), 404);
    expectError(await touch(t, DEMO), 404);
    expect((await t.request.post('/__admin/reset')).status).toBe(200);
    expectError(await touch(t, 'second-new-key'), 404);
  });
});

// A header may hold 16 KiB, and each account made keeps its key: a key no real account could have
// (over 200 characters, a space, non-ASCII) is made none (black-box sweep, stop 54: a 5,000-character key was).
describe('the keys --accept-any-key makes accounts of', () => {
  it.each([
    ['201 characters', 'k'.repeat(201)],
    ['5,000 characters', 'k'.repeat(5_000)],
    ['a space', 'ci key'],
  ])('a key of %s: a 401 saying what a key must be, and no account', async (_, key) => {
    const t = await createTestApp({ acceptAnyKey: true });
    const accounts = (await t.data()).accounts.length;
    const refused = await touch(t, key);
    expectError(refused, 401, { mentions: 'visible ASCII without spaces, 1 to 200 characters' });
    expect((await t.data()).accounts).toHaveLength(accounts);
  });

  it('a key of 200 visible characters is made an account', async () => {
    const t = await createTestApp({ acceptAnyKey: true });
    expectError(await touch(t, `k${'~'.repeat(199)}`), 404);
    expect(await t.accountByKey(`k${'~'.repeat(199)}`)).toBeDefined();
  });
});

describe("a key's seeded account, its slugs taken first by someone else", () => {
  const VICTIM = 'ci-victim-key';

  it('gets other slugs: every request with the key is answered, never a 500', async () => {
    const t = await createTestApp({ acceptAnyKey: true });
    const domain = (await t.data()).defaultDomain;
    // What the key would be seeded with, attempt after attempt, each clear of the slugs before it.
    const taken = new Set<string>();
    for (let attempt = 0; attempt < 8; attempt += 1) {
      for (const link of buildAccountForKey(VICTIM, domain, (slug) => taken.has(slug)).links) taken.add(link.slug);
    }
    for (const slug of taken) {
      const res = await t.request.post('/links').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/squat', domain: 'short.test', tags: [], slug });
      expect(res.status, res.text).toBe(201);
    }
    expectError(await touch(t, VICTIM), 404);
    const slugs = (await t.linksOf(VICTIM)).map((link) => link.slug);
    expect(slugs).toHaveLength(5);
    expect(slugs.filter((slug) => taken.has(slug))).toEqual([]);
    const created = await t.request.post('/links').set('x-api-key', VICTIM).send({ destinationUrl: 'https://example.com/mine', domain: 'short.test', tags: [] });
    expect(created.status, created.text).toBe(201);
  });
});
