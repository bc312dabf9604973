// buildSeed: deterministic, faithful to the fixture spec, and every seeded link is a valid Link of
// the contract. parseFixtureSpec: bad fixture files are refused with the entry at fault named.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEED, buildAccountForKey, buildSeed, buildSeedLinks, keySeed, type SeededAccount } from '../../fixtures/seed.js';
import { parseFixtureSpec, type AccountFixture } from '../../fixtures/fixture-spec.js';
import { MockState } from '../../src/core/state.js';
import { olderFirst } from '../../src/core/link-order.js';
import type { LinkRecord } from '../../src/core/model.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';
import { expectMatchesSchema } from '../helpers/contract-assert.js';

const spec = readFixtureSpec();
const REFERENCE = Date.parse('2026-11-01T12:00:00.000Z');

describe('buildSeed determinism', () => {
  afterEach(() => { vi.useRealTimers(); });

  it.each([DEFAULT_SEED, 1234, 0, 1])('seed %i twice gives byte-identical data', (seed) => {
    expect(JSON.stringify(buildSeed(seed, spec))).toBe(JSON.stringify(buildSeed(seed, spec)));
  });

  it.each([[DEFAULT_SEED, 1234], [1, 2], [0, 1]])('seeds %i and %i give different data', (a, b) => {
    expect(JSON.stringify(buildSeed(a, spec))).not.toBe(JSON.stringify(buildSeed(b, spec)));
  });

  it.each([DEFAULT_SEED, 1234])("seed %i writes each account's links oldest first (a start's sort is one pass)", (seed) => {
    const order = [...buildSeed(seed, spec).links.values()];
    for (const accountId of new Set(order.map((link) => link.accountId))) {
      const links = order.filter((link) => link.accountId === accountId);
      const outOfOrder = links.findIndex((link, i) => i > 0 && olderFirst(links[i - 1] as LinkRecord, link) > 0);
      expect(outOfOrder, `${accountId}: link ${outOfOrder} of ${links.length} is older than the one before it`).toBe(-1);
    }
  });

  it.each([DEFAULT_SEED, 1234])('seed %i: buildSeedLinks gives the same data, its links in the order buildSeed keys them', (seed) => {
    const { data, links } = buildSeedLinks(seed, spec);
    const built = buildSeed(seed, spec);
    expect(JSON.stringify(links)).toBe(JSON.stringify([...built.links.values()]));
    expect(JSON.stringify({ ...data, links: built.links })).toBe(JSON.stringify(built));
    expect(data.links.size).toBe(0);
  });

  it('does not depend on the clock, and leaves the spec as it was', () => {
    const specBefore = JSON.stringify(spec);
    const today = JSON.stringify(buildSeed(DEFAULT_SEED, spec));
    vi.useFakeTimers({ now: new Date('2031-05-05T05:05:05Z'), toFake: ['Date'] });
    expect(JSON.stringify(buildSeed(DEFAULT_SEED, spec))).toBe(today);
    expect(JSON.stringify(spec)).toBe(specBefore);
  });
});

describe.each([DEFAULT_SEED, 1234])('seeded data (seed %i) matches the fixture spec', (seed) => {
  const data = buildSeed(seed, spec);
  const links = [...data.links.values()];
  const tags = Object.values(data.tags);
  const account = (apiKey: string) => {
    const found = data.accounts.find((a) => a.apiKey === apiKey);
    if (!found) throw new Error(`no account ${apiKey}`);
    return found;
  };
  const linksOf = (apiKey: string) => links.filter((l) => l.accountId === account(apiKey).id);

  it('has the three demo accounts and the default domain', () => {
    expect(data.accounts.map((a) => a.apiKey)).toEqual(['demo-key', 'other-key', 'limited-key']);
    expect(data.defaultDomain.name).toBe('short.test');
    expect(data.seed).toBe(seed);
  });

  it('demo-key is roomy with go.acme.test; other-key has its own custom domain', () => {
    expect(account('demo-key').linkLimit).toBe(1_000_000);
    expect(account('demo-key').domains.map((d) => d.name)).toEqual(['go.acme.test']);
    const otherDomains = account('other-key').domains.map((d) => d.name);
    expect(otherDomains.length).toBeGreaterThan(0);
    expect(otherDomains).not.toContain('go.acme.test');
    expect(linksOf('demo-key').length).toBeLessThan(account('demo-key').linkLimit);
  });

  it('limited-key has exactly linkLimit links', () => {
    expect(linksOf('limited-key')).toHaveLength(account('limited-key').linkLimit);
  });

  it('every account has the number of links and tags of its fixture', () => {
    for (const fixture of spec.accounts) {
      expect(linksOf(fixture.apiKey), fixture.apiKey).toHaveLength(fixture.links);
      expect(tags.filter((t) => t.accountId === account(fixture.apiKey).id), fixture.apiKey).toHaveLength(fixture.tags);
    }
  });

  it('some links have a title, not all', () => {
    const titled = links.filter((l) => l.title !== undefined).length;
    expect(titled).toBeGreaterThan(0);
    expect(titled).toBeLessThan(links.length);
  });

  it('createdAt is an ISO date before 2026-11-01; clickCount a whole number >= 0', () => {
    for (const link of links) {
      expect(new Date(link.createdAt).toISOString()).toBe(link.createdAt);
      expect(Date.parse(link.createdAt)).toBeLessThanOrEqual(REFERENCE);
      expect(Number.isInteger(link.clickCount) && link.clickCount >= 0).toBe(true);
    }
  });

  it('every slug is unique in its domain, on a domain its account may use', () => {
    const keys = links.map((l) => `${l.domainId}/${l.slug}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const link of links) {
      const owner = data.accounts.find((a) => a.id === link.accountId);
      const usable = [data.defaultDomain, ...(owner?.domains ?? [])].map((d) => d.id);
      expect(usable, link.id).toContain(link.domainId);
    }
  });

  it('every tagId resolves to a tag of the same account, once per link', () => {
    for (const link of links) {
      expect(new Set(link.tagIds).size, link.id).toBe(link.tagIds.length);
      for (const id of link.tagIds) expect(data.tags[id]?.accountId, `${link.id} → ${id}`).toBe(link.accountId);
    }
  });

  it('tag names are trimmed, non-empty and unique per account (so reuse by name is unambiguous)', () => {
    for (const a of data.accounts) {
      const names = tags.filter((t) => t.accountId === a.id).map((t) => t.name);
      expect(new Set(names).size, a.apiKey).toBe(names.length);
      for (const name of names) expect(name.trim() === name && name.length > 0 && name.length <= 50, name).toBe(true);
    }
  });

  it('ids are unique across accounts, domains, tags and links, and keys match ids', () => {
    const ids = [data.defaultDomain.id, ...data.accounts.flatMap((a) => [a.id, ...a.domains.map((d) => d.id)]), ...tags.map((t) => t.id), ...links.map((l) => l.id)];
    expect(new Set(ids).size).toBe(ids.length);
    for (const [key, link] of [...data.links]) expect(link.id).toBe(key);
    for (const [key, tag] of Object.entries(data.tags)) expect(tag.id).toBe(key);
  });

  it('every link rendered by MockState.toLink is a Link of openapi.yaml', () => {
    const state = new MockState(data);
    for (const link of links) {
      const rendered = state.toLink(link);
      expectMatchesSchema('Link', rendered);
      const domain = [data.defaultDomain, ...data.accounts.flatMap((a) => a.domains)].find((d) => d.id === link.domainId);
      expect(rendered.shortUrl).toBe(`https://${domain?.name}/${link.slug}`);
    }
  });
});

describe('buildAccountForKey (--accept-any-key)', () => {
  const data = buildSeed(DEFAULT_SEED, spec);
  const build = (key: string): SeededAccount => buildAccountForKey(key, data.defaultDomain, () => false);
  const idsOf = (seeded: SeededAccount): string[] => [seeded.account.id, ...seeded.tags.map((t) => t.id), ...seeded.links.map((l) => l.id)];

  it.each(['ci-122789', 'ci-job-a', 'ключ-🔑'])('the same key twice gives byte-identical data: %s', (key) => {
    expect(JSON.stringify(build(key))).toBe(JSON.stringify(build(key)));
  });

  // These two keys had one 32-bit FNV-1a seed, hence one account id and the same link ids.
  it('ci-122789 and ci-339192 share no id and no data', () => {
    const [a, b] = [build('ci-122789'), build('ci-339192')];
    expect(idsOf(a).filter((id) => idsOf(b).includes(id))).toEqual([]);
    expect(a.links.map((l) => l.slug)).not.toEqual(b.links.map((l) => l.slug));
  });

  it('the seed is the whole SHA-256 of the key: eight 32-bit words', () => {
    expect(keySeed('ci-122789')).toHaveLength(8);
    expect(keySeed('ci-122789')).not.toEqual(keySeed('ci-339192'));
    // The known digest of "abc" (FIPS 180-2), word by word.
    expect(keySeed('abc').map((word) => word.toString(16).padStart(8, '0')).join('')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('parseFixtureSpec', () => {
  const account = (over: Partial<AccountFixture> = {}): AccountFixture => ({
    apiKey: 'k1', name: 'One', linkLimit: 10, customDomains: [], tags: 1, links: 1, ...over,
  });
  const specOf = (...accounts: unknown[]) => ({ defaultDomain: 'short.test', accounts });

  it('accepts the shipped fixtures and a minimal spec', () => {
    expect(parseFixtureSpec(JSON.parse(JSON.stringify(spec)))).toEqual(spec);
    expect(parseFixtureSpec(specOf(account()))).toEqual(specOf(account()));
  });

  const bad: Array<[name: string, raw: unknown, message: RegExp]> = [
    ['not an object', null, /expected a JSON object/],
    ['no default domain', { accounts: [account()] }, /"defaultDomain"/],
    ['empty accounts', specOf(), /"accounts" must be a non-empty array/],
    ['accounts not an array', { defaultDomain: 'short.test', accounts: {} }, /"accounts"/],
    ['an account that is not an object', specOf(account(), null), /accounts\[1\]/],
    ['duplicate apiKey', specOf(account(), account({ apiKey: 'k2' }), account()), /accounts\[2\]\.apiKey/],
    ['empty apiKey', specOf(account({ apiKey: ' ' })), /accounts\[0\]\.apiKey/],
    ['empty name', specOf(account(), account({ apiKey: 'k2', name: '' })), /accounts\[1\]\.name/],
    ['links > linkLimit', specOf(account(), account({ apiKey: 'k2', linkLimit: 5, links: 6 })), /accounts\[1\]: links \(6\) exceeds linkLimit \(5\)/],
    ['negative linkLimit', specOf(account({ linkLimit: -1 })), /accounts\[0\]: linkLimit/],
    ['fractional tags', specOf(account({ tags: 1.5 })), /accounts\[0\]: .*tags/],
    ['customDomains not an array', specOf(account({ customDomains: 'a.test' as unknown as string[] })), /accounts\[0\]\.customDomains/],
    ['domain reused by another account', specOf(account({ customDomains: ['a.test'] }), account({ apiKey: 'k2', customDomains: ['A.test'] })), /accounts\[1\]\.customDomains: 'A\.test'/],
    ['domain reused in one account', specOf(account({ customDomains: ['a.test', 'a.test'] })), /accounts\[0\]\.customDomains: 'a\.test'/],
    ['custom domain is the default domain', specOf(account({ customDomains: ['SHORT.test'] })), /accounts\[0\]\.customDomains: 'SHORT\.test'/],
    ['empty custom domain', specOf(account({ customDomains: [''] })), /accounts\[0\]\.customDomains/],
    // Each account within its own limit, the sum past MAX_SEEDED_LINKS (5,000,000): refused as a whole.
    [
      'more links in all than a seed may make',
      specOf(account({ linkLimit: 3_000_000, links: 3_000_000 }), account({ apiKey: 'k2', linkLimit: 2_000_001, links: 2_000_001 })),
      /^fixtures: the accounts ask for 5,000,001 links in all; a seed makes at most 5,000,000 \(MAX_SEEDED_LINKS\)/,
    ],
  ];
  it.each(bad)('rejects: %s', (_name, raw, message) => {
    expect(() => parseFixtureSpec(raw)).toThrow(message);
  });
});
