// --accept-any-key: an account is its key. A seeded account whose id would be another record's is
// refused (500) and changes nothing, since records point to their account by id; and replaying a
// put-account finds the account by key, as requests do, never by its derived id.
import { describe, expect, it } from 'vitest';
import { buildAccountForKey, buildSeed } from '../../fixtures/seed.js';
import { applyChange } from '../../src/core/changes.js';
import { ApiError } from '../../src/core/errors.js';
import type { AccountFactory } from '../../src/core/any-key-accounts.js';
import { LinkService } from '../../src/core/links.js';
import type { SeededAccount } from '../../src/core/link-store.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { accountForKey } from '../../src/process/account-for-key.js';
import type { AccountRecord, MockData } from '../../src/core/model.js';
import type { MockState } from '../../src/core/state.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';

const spec = readFixtureSpec();
const NEW_KEY = 'ci-job-ids';

/** The real factory, then one of its ids swapped for an id the state already holds. */
type Swap = (seeded: SeededAccount, state: MockState) => void;
function serviceWith(swap: Swap) {
  const calls = { persist: 0 };
  const store = new LocalLinkStore(buildSeed(1234, spec), async () => void (calls.persist += 1), ':memory:');
  const real = accountForKey(store, buildAccountForKey);
  const createAccount: AccountFactory = async (apiKey) => {
    const seeded = await real(apiKey);
    swap(seeded, store.state);
    return seeded;
  };
  const service = new LinkService({ store, createAccount, random: () => 0, now: () => new Date(0) });
  return { service, state: () => store.state, calls };
}
const demo = (state: MockState): AccountRecord => state.accountByKey('demo-key') as AccountRecord;
const firstOf = <T>(record: Record<string, T>): T => Object.values(record)[0] as T;

const clashes: Array<[what: string, swap: Swap]> = [
  ["the account id of demo-key's account", (seeded, state) => void (seeded.account.id = demo(state).id)],
  ['the id of a tag already there', (seeded, state) => void ((seeded.tags[0] as { id: string }).id = firstOf(state.data.tags).id)],
  ['the id of a link already there', (seeded, state) => void ((seeded.links[0] as { id: string }).id = [...state.data.links.values()][0]!.id)],
];

describe('a new key whose seeded account would reuse an id', () => {
  it.each(clashes)('is refused with a 500 and changes nothing: %s', async (_what, swap) => {
    const { service, state, calls } = serviceWith(swap);
    const before = JSON.stringify(state().data);
    const thrown: unknown = await Promise.resolve(service.authenticate(NEW_KEY)).then(() => undefined, (error: unknown) => error);
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).status).toBe(500);
    expect((thrown as ApiError).errorDescription).toMatch(/reuse an existing id/);
    expect((thrown as ApiError).errorDescription).not.toContain(NEW_KEY);
    expect(JSON.stringify(state().data)).toBe(before);
    expect(state().accountByKey(NEW_KEY)).toBeUndefined();
    expect(calls.persist).toBe(0);
  });

  it('and with nothing swapped, the key gets its own account (the control)', async () => {
    const { service, state, calls } = serviceWith(() => undefined);
    const account = await service.authenticate(NEW_KEY);
    expect(state().accountByKey(NEW_KEY)).toBe(account);
    expect(state().linksOf(account).length).toBeGreaterThan(0);
    expect(calls.persist).toBe(1);
  });
});

describe('replaying put-account (a restart)', () => {
  const account = (apiKey: string, id: string, linkLimit = 10): AccountRecord => ({ id, name: apiKey, apiKey, linkLimit, domains: [] });
  const replay = (...accounts: AccountRecord[]): MockData => {
    const data = buildSeed(1234, spec);
    for (const change of accounts) applyChange(data, { op: 'put-account', account: change });
    return data;
  };

  it('keeps two keys two accounts even when their records carry one id', () => {
    const data = replay(account('key-a', 'acc_SAMEIDSAMEIDSAME'), account('key-b', 'acc_SAMEIDSAMEIDSAME'));
    expect(data.accounts.filter((a) => a.apiKey === 'key-a' || a.apiKey === 'key-b').map((a) => a.apiKey)).toEqual(['key-a', 'key-b']);
  });

  it('replaces the account of the same key (a new link limit)', () => {
    const data = replay(account('key-a', 'acc_AAAAAAAAAAAAAAAA', 10), account('key-a', 'acc_AAAAAAAAAAAAAAAA', 3));
    expect(data.accounts.filter((a) => a.apiKey === 'key-a').map((a) => a.linkLimit)).toEqual([3]);
  });

  it("replaces a fixture account's record by its key", () => {
    const seeded = buildSeed(1234, spec);
    const limited = seeded.accounts.find((a) => a.apiKey === 'limited-key') as AccountRecord;
    const data = replay({ ...limited, linkLimit: 99 });
    expect(data.accounts).toHaveLength(seeded.accounts.length);
    expect(data.accounts.find((a) => a.apiKey === 'limited-key')?.linkLimit).toBe(99);
  });
});

// Issue 23 item 9: another request takes one of the seeded slugs after they were checked and
// before the account is stored: the account is seeded again, clear of it, never a 500.
describe('a seeded slug taken between the seeding and the store', () => {
  it('seeds the account again and stores it', async () => {
    let squatted = false;
    const { service, state } = serviceWith((seeded, current) => {
      if (squatted) return;
      squatted = true;
      const template = [...current.data.links.values()][0]!;
      current.addLink({ ...template, id: 'lnk_SQUATSQUATSQUAT', slug: (seeded.links[0] as { slug: string }).slug, domainId: current.data.defaultDomain.id });
    });
    const account = await service.authenticate(NEW_KEY);
    expect(state().accountByKey(NEW_KEY)).toBe(account);
    const slugs = state().linksOf(account).map((link) => link.slug);
    expect(slugs).toHaveLength(5);
    expect(slugs).not.toContain(state().linkById('lnk_SQUATSQUATSQUAT')?.slug);
  });
});
