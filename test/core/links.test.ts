// LinkService rules (D8-D19) over seeded data, as tables. No HTTP: calls in, Links or ApiErrors out.
import { describe, expect, it } from 'vitest';
import type { CreateLinkRequest, Link, Tag, UpdateLinkRequest } from '../../src/core/api-types.js';
import { ApiError, errors } from '../../src/core/errors.js';
import { LinkService, RANDOM_SLUG_LENGTH } from '../../src/core/links.js';
import type { AccountRecord, LinkRecord, TagRecord } from '../../src/core/model.js';
import type { RandomInt } from '../../src/core/random.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';
import { buildSeed } from '../../fixtures/seed.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { expectMatchesSchema } from '../helpers/contract-assert.js';

const spec = readFixtureSpec();
const NOW = new Date('2026-12-01T10:00:00.000Z');
const URL_A = 'https://example.com/a';
const UNKNOWN_TAG = 'tag_0000000000000000';
const RANDOM_SLUG = /^[A-Za-z0-9]{7}$/;

type Key = 'demo' | 'other' | 'limited';
type Input = Partial<CreateLinkRequest>;

/** mulberry32: a tiny seeded PRNG, so ids are deterministic and distinct. */
function prng(seed: number): RandomInt {
  let s = seed >>> 0;
  return (max) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * max);
  };
}

async function setup() {
  const queue: number[] = []; // scripted values, used before the PRNG
  const fallback = prng(7);
  const random: RandomInt = (max) => { const next = queue.shift(); return next === undefined ? fallback(max) : next % max; };
  const calls = { persist: 0 };
  const store = new LocalLinkStore(buildSeed(1234, spec), async () => { calls.persist += 1; }, ':memory:');
  const service = new LinkService({ store, random, now: () => NOW });
  const acc: Record<Key, AccountRecord> = { demo: await service.authenticate('demo-key'), other: await service.authenticate('other-key'), limited: await service.authenticate('limited-key') };
  const tagsOf = (key: Key): TagRecord[] => Object.values(store.state.data.tags).filter((t) => t.accountId === acc[key].id);
  return {
    service, store, acc, queue, calls, tagsOf,
    tag(key: Key, index: number, name?: string): Tag {
      const record = tagsOf(key)[index];
      if (!record) throw new Error(`no tag ${index} in ${key}`);
      return { id: record.id, name: name ?? record.name };
    },
    seededLink: (key: Key): LinkRecord => [...store.state.data.links.values()].find((l) => l.accountId === acc[key].id)!,
    create: (key: Key, input: Input = {}): Promise<Link> =>
      service.create(acc[key], { destinationUrl: URL_A, domain: 'short.test', tags: [], ...input }),
  };
}
type Ctx = Awaited<ReturnType<typeof setup>>;

interface Refusal { status: number; code?: string; mentions: string | RegExp }

/** The op is refused with this error, and the data and persist calls are exactly as before. */
async function expectRefused(c: Ctx, op: () => Promise<unknown>, want: Refusal): Promise<void> {
  const before = JSON.stringify(c.store.state.data);
  const persists = c.calls.persist;
  const error: unknown = await op().then(() => 'no error', (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  const { status, code, errorDescription } = error as ApiError;
  expect({ status, code }).toEqual({ status: want.status, code: want.code });
  expect(errorDescription).toMatch(want.mentions);
  expect(JSON.stringify(c.store.state.data)).toBe(before);
  expect(c.calls.persist).toBe(persists);
}

interface CreateRow { name: string; key?: Key; before?: Array<[Key, Input]>; input: Input | ((c: Ctx) => Input) }
async function runCreate(c: Ctx, row: CreateRow): Promise<Link> {
  for (const [key, input] of row.before ?? []) await c.create(key, input);
  return c.create(row.key ?? 'demo', typeof row.input === 'function' ? row.input(c) : row.input);
}

describe('create: domains and slugs (D8, D11, D12, D16, D17)', () => {
  const rows: Array<CreateRow & { domain: string; slug: string | RegExp }> = [
    { name: 'default domain, explicit slug', input: { slug: 'spring-sale' }, domain: 'short.test', slug: 'spring-sale' },
    { name: 'own custom domain', input: { domain: 'go.acme.test', slug: 'pricing' }, domain: 'go.acme.test', slug: 'pricing' },
    { name: 'domain name is case-insensitive', input: { domain: 'Go.ACME.Test', slug: 'p2' }, domain: 'go.acme.test', slug: 'p2' },
    { name: 'default domain for another account', key: 'other', input: { slug: 'globex' }, domain: 'short.test', slug: 'globex' },
    { name: 'another account, its own custom domain', key: 'other', input: { domain: 'links.globex.test' }, domain: 'links.globex.test', slug: RANDOM_SLUG },
    { name: 'slug omitted: random', input: {}, domain: 'short.test', slug: RANDOM_SLUG },
    { name: 'slug empty: random', input: { slug: '' }, domain: 'short.test', slug: RANDOM_SLUG },
    { name: 'same slug on another domain is fine', before: [['demo', { slug: 'twice' }]], input: { domain: 'go.acme.test', slug: 'twice' }, domain: 'go.acme.test', slug: 'twice' },
    { name: "a slug of another account's domain is free on short.test", before: [['other', { domain: 'links.globex.test', slug: 'gx' }]], input: { slug: 'gx' }, domain: 'short.test', slug: 'gx' },
  ];
  it.each(rows)('$name', async (row) => {
    const c = await setup();
    const link = await runCreate(c, row);
    const account = c.acc[row.key ?? 'demo'];
    const domain = [c.store.state.data.defaultDomain, ...account.domains].find((d) => d.name === row.domain);
    expect(link).toMatchObject({ destinationUrl: URL_A, domain: { id: domain?.id, name: row.domain }, clickCount: 0, tags: [] });
    if (typeof row.slug === 'string') expect(link.slug).toBe(row.slug);
    else expect(link.slug).toMatch(row.slug);
    expect(link.shortUrl).toBe(`https://${row.domain}/${link.slug}`);
    expect(link.createdAt).toBe(NOW.toISOString());
    expect(new Date(link.createdAt).toISOString()).toBe(link.createdAt);
    expect(link.id).toMatch(/^lnk_[A-Za-z0-9]{16}$/);
    expect(link).not.toHaveProperty('title');
    expectMatchesSchema('Link', link);
    expect(c.store.state.toLink(c.store.state.linkOf(account, link.id)!)).toEqual(link);
    expect(c.calls.persist).toBe((row.before?.length ?? 0) + 1);
  });

  it('a Link shows its fields in the contract order, with title after destinationUrl only when it has one', async () => {
    const c = await setup();
    const plain = await c.create('demo');
    const seeded = [...c.store.state.data.links.values()].find((link) => link.title !== undefined);
    expect(seeded).toBeDefined(); // only seeded links have a title (the mock never fetches one)
    const titled = c.store.state.toLink(seeded!);
    const base = ['id', 'createdAt', 'destinationUrl', 'slug', 'domain', 'shortUrl', 'clickCount', 'tags'];
    expect(Object.keys(plain)).toEqual(base);
    expect(Object.keys(titled)).toEqual(['id', 'createdAt', 'destinationUrl', 'title', ...base.slice(3)]);
    expect(titled.title).toBe(seeded!.title);
    expectMatchesSchema('Link', titled);
  });

  it('a random slug that collides on the first attempt is retried with a different free slug', async () => {
    const c = await setup();
    await c.create('demo', { slug: 'AAAAAAA' });
    // Each attempt draws the link's id (16 characters), then its slug.
    const id = (n: number): number[] => Array<number>(16).fill(n);
    c.queue.push(...id(2), ...Array<number>(RANDOM_SLUG_LENGTH).fill(0), ...id(4), ...Array<number>(RANDOM_SLUG_LENGTH).fill(1));
    expect((await c.create('other')).slug).toBe('BBBBBBB');
    c.queue.push(...id(3), ...Array<number>(RANDOM_SLUG_LENGTH).fill(0)); // taken on short.test only
    expect((await c.create('demo', { domain: 'go.acme.test' })).slug).toBe('AAAAAAA');
  });

  it('no free random slug is a refused request (500) that changes nothing', async () => {
    const c = await setup();
    await c.create('demo', { slug: 'AAAAAAA' });
    c.queue.push(...Array<number>(RANDOM_SLUG_LENGTH * 1000).fill(0));
    await expectRefused(c, () => c.create('demo', { tags: [{ name: 'would-be-new' }] }), { status: 500, mentions: 'short.test' });
  });

  it('a slug is free again after its link is deleted', async () => {
    const c = await setup();
    const first = await c.create('demo', { slug: 'reuse-me' });
    await c.service.delete(c.acc.demo, first.id);
    const second = await c.create('other', { slug: 'reuse-me' });
    expect(second).toMatchObject({ slug: 'reuse-me', shortUrl: 'https://short.test/reuse-me' });
    expect(second.id).not.toBe(first.id);
  });
});

describe('create: refused requests, in the order of D19, change nothing', () => {
  const mismatch = (c: Ctx): Tag => c.tag('demo', 0, 'renamed');
  const unknown: Tag = { id: UNKNOWN_TAG, name: 'x' };
  const rows: Array<CreateRow & Refusal> = [
    { name: "another account's custom domain", input: { domain: 'links.globex.test' }, status: 404, mentions: "domain 'links.globex.test' not found" },
    { name: 'unknown domain', input: { domain: 'unknown.test', tags: [{ name: 'would-be-new' }] }, status: 404, mentions: "domain 'unknown.test' not found" },
    { name: 'slug taken in the same domain', before: [['demo', { slug: 'taken' }]], input: { slug: 'taken', tags: [{ name: 'would-be-new' }] }, status: 400, mentions: "slug 'taken' is already taken in domain 'short.test'" },
    { name: 'slug taken on short.test by another account', before: [['other', { slug: 'theirs' }]], input: { slug: 'theirs' }, status: 400, mentions: "slug 'theirs' is already taken" },
    { name: 'slug taken, domain cased differently', before: [['demo', { domain: 'go.acme.test', slug: 'x1' }]], input: { domain: 'GO.acme.test', slug: 'x1' }, status: 400, mentions: "slug 'x1' is already taken in domain 'go.acme.test'" },
    { name: 'link limit reached', key: 'limited', input: { tags: [{ name: 'would-be-new' }] }, status: 400, code: 'LINK_LIMIT_REACHED', mentions: 'limit of 5 links' },
    { name: 'link limit before unknown domain', key: 'limited', input: { domain: 'unknown.test' }, status: 400, code: 'LINK_LIMIT_REACHED', mentions: 'limit' },
    { name: "link limit before another account's domain", key: 'limited', input: { domain: 'go.acme.test' }, status: 400, code: 'LINK_LIMIT_REACHED', mentions: 'limit' },
    { name: 'link limit before unknown tag id', key: 'limited', input: { tags: [unknown] }, status: 400, code: 'LINK_LIMIT_REACHED', mentions: 'limit' },
    { name: 'domain before unknown tag id', input: { domain: 'unknown.test', tags: [unknown] }, status: 404, mentions: 'domain' },
    { name: 'unknown tag id', input: { tags: [{ name: 'would-be-new' }, unknown] }, status: 404, mentions: `tag '${UNKNOWN_TAG}' not found` },
    { name: "another account's tag id", input: (c) => ({ tags: [c.tag('other', 0)] }), status: 404, mentions: /^tag 'tag_[A-Za-z0-9]+' not found$/ },
    { name: 'tag id with another name', input: (c) => ({ tags: [{ name: 'would-be-new' }, mismatch(c)] }), status: 400, mentions: /is named '.+', not 'renamed'/ },
    { name: 'unknown id beats mismatch (mismatch first)', input: (c) => ({ tags: [mismatch(c), unknown] }), status: 404, mentions: 'not found' },
    { name: 'unknown id beats mismatch (unknown first)', input: (c) => ({ tags: [unknown, mismatch(c)] }), status: 404, mentions: 'not found' },
    { name: 'tag 404 before slug taken', before: [['demo', { slug: 'taken' }]], input: { slug: 'taken', tags: [unknown] }, status: 404, mentions: `tag '${UNKNOWN_TAG}' not found` },
    { name: 'tag mismatch before slug taken', before: [['demo', { slug: 'taken' }]], input: (c) => ({ slug: 'taken', tags: [mismatch(c)] }), status: 400, mentions: 'is named' },
  ];
  it.each(rows)('$name', async (row) => {
    const c = await setup();
    for (const [key, input] of row.before ?? []) await c.create(key, input);
    await expectRefused(c, () => runCreate(c, { ...row, before: [] }), row);
  });
});

describe('tags (D9, D10), on create and on update', () => {
  type Expected = Tag | string; // a string: a new tag of that name
  const rows: Array<{ name: string; tags: (c: Ctx) => Tag[]; expected: (c: Ctx) => Expected[] }> = [
    { name: 'no tags', tags: () => [], expected: () => [] },
    { name: 'existing name, trimmed: same id', tags: (c) => [{ name: `  ${c.tag('demo', 0).name}\t` }], expected: (c) => [c.tag('demo', 0)] },
    { name: 'existing id with its name', tags: (c) => [c.tag('demo', 1)], expected: (c) => [c.tag('demo', 1)] },
    { name: 'existing id with its name padded', tags: (c) => [c.tag('demo', 1, ` ${c.tag('demo', 1).name} `)], expected: (c) => [c.tag('demo', 1)] },
    { name: 'new name creates a tag, trimmed', tags: () => [{ name: ' q3-campaign ' }], expected: () => ['q3-campaign'] },
    { name: 'names match exactly: other case is new', tags: (c) => [{ name: c.tag('demo', 0).name.toUpperCase() }], expected: (c) => [c.tag('demo', 0).name.toUpperCase()] },
    { name: 'duplicates in one request collapse', tags: () => [{ name: 'dup' }, { name: ' dup ' }, { name: 'dup' }], expected: () => ['dup'] },
    { name: 'id and name of one tag collapse', tags: (c) => [c.tag('demo', 0), { name: c.tag('demo', 0).name }, c.tag('demo', 0)], expected: (c) => [c.tag('demo', 0)] },
    { name: "another account's tag name is a new tag here", tags: (c) => [{ name: 'globex-only' }, c.tag('demo', 2)], expected: (c) => ['globex-only', c.tag('demo', 2)] },
    { name: 'request order is kept', tags: (c) => [{ name: 'zeta' }, c.tag('demo', 2), { name: 'alpha' }], expected: (c) => ['zeta', c.tag('demo', 2), 'alpha'] },
  ];
  for (const op of ['create', 'update'] as const) {
    it.each(rows)(`${op}: $name`, async (row) => {
      const c = await setup();
      await c.create('other', { tags: [{ name: 'globex-only' }] });
      const target = await c.create('demo', { tags: [{ name: 'old' }] });
      const oldIds = new Set(Object.keys(c.store.state.data.tags));
      const link = op === 'create' ? await c.create('demo', { tags: row.tags(c) }) : await c.service.update(c.acc.demo, target.id, { tags: row.tags(c) });
      const expected = row.expected(c);
      expect(link.tags.map((t) => (oldIds.has(t.id ?? '') ? t : t.name))).toEqual(expected);
      const created = Object.values(c.store.state.data.tags).filter((t) => !oldIds.has(t.id));
      expect(created.map((t) => ({ accountId: t.accountId, name: t.name }))).toEqual(expected.filter((e) => typeof e === 'string').map((name) => ({ accountId: c.acc.demo.id, name })));
      for (const tag of created) expect(tag.id).toMatch(/^tag_[A-Za-z0-9]{16}$/);
      const again = await c.create('demo', { tags: link.tags.map((t) => ({ name: t.name })) });
      expect(again.tags).toEqual(link.tags); // new tags are reused from now on
    });
  }
});

describe('update (D6, D15)', () => {
  const URL_B = 'https://example.org/b?x=1';
  const rows: Array<{ name: string; input: UpdateLinkRequest; destinationUrl: string; tags: string[] }> = [
    { name: 'destinationUrl only: tags kept', input: { destinationUrl: URL_B }, destinationUrl: URL_B, tags: ['a', 'b'] },
    { name: 'tags only: replaces the whole set', input: { tags: [{ name: 'c' }] }, destinationUrl: URL_A, tags: ['c'] },
    { name: 'tags [] clears the set', input: { tags: [] }, destinationUrl: URL_A, tags: [] },
    { name: 'both', input: { destinationUrl: URL_B, tags: [{ name: 'b' }, { name: 'a' }] }, destinationUrl: URL_B, tags: ['b', 'a'] },
  ];
  it.each(rows)('$name', async (row) => {
    const c = await setup();
    const before = await c.create('demo', { domain: 'go.acme.test', slug: 'target', tags: [{ name: 'a' }, { name: 'b' }] });
    const link = await c.service.update(c.acc.demo, before.id, row.input);
    expect(link).toEqual({ ...before, destinationUrl: row.destinationUrl, tags: expect.any(Array) as unknown });
    expect(link.tags.map((t) => t.name)).toEqual(row.tags);
    expect(c.store.state.toLink(c.store.state.linkOf(c.acc.demo, link.id)!)).toEqual(link);
    expectMatchesSchema('Link', link);
    expect(c.calls.persist).toBe(2);
  });

  const refused: Array<{ name: string; id: (c: Ctx, own: Link) => string; input: (c: Ctx) => UpdateLinkRequest } & Refusal> = [
    { name: 'unknown id', id: () => 'lnk_doesNotExist0000', input: () => ({ destinationUrl: URL_B }), status: 404, mentions: "link 'lnk_doesNotExist0000' not found" },
    { name: "another account's link", id: (c) => c.seededLink('other').id, input: () => ({ destinationUrl: URL_B }), status: 404, mentions: /^link 'lnk_\w+' not found$/ },
    { name: "'__proto__' is no link", id: () => '__proto__', input: () => ({ destinationUrl: URL_B }), status: 404, mentions: 'not found' },
    { name: 'unknown tag id', id: (_c, own) => own.id, input: () => ({ destinationUrl: URL_B, tags: [{ name: 'would-be-new' }, { id: UNKNOWN_TAG, name: 'x' }] }), status: 404, mentions: `tag '${UNKNOWN_TAG}' not found` },
    { name: "another account's tag id", id: (_c, own) => own.id, input: (c) => ({ tags: [c.tag('other', 0)] }), status: 404, mentions: 'not found' },
    { name: 'tag id with another name', id: (_c, own) => own.id, input: (c) => ({ destinationUrl: URL_B, tags: [{ name: 'would-be-new' }, c.tag('demo', 0, 'renamed')] }), status: 400, mentions: 'is named' },
  ];
  it.each(refused)('refused: $name', async (row) => {
    const c = await setup();
    const own = await c.create('demo', { tags: [{ name: 'a' }] });
    await expectRefused(c, () => c.service.update(c.acc.demo, row.id(c, own), row.input(c)), row);
  });
});

describe('delete (D3, D15)', () => {
  it('removes the link: it is gone for update, delete and lookup, and frees a link of the limit', async () => {
    const c = await setup();
    const victim = c.seededLink('limited');
    await c.service.delete(c.acc.limited, victim.id);
    expect(c.store.state.linkOf(c.acc.limited, victim.id)).toBeUndefined();
    expect(c.store.state.data.links).not.toHaveProperty(victim.id);
    expect(c.calls.persist).toBe(1);
    await expectRefused(c, () => c.service.delete(c.acc.limited, victim.id), { status: 404, mentions: 'not found' });
    await expectRefused(c, () => c.service.update(c.acc.limited, victim.id, { tags: [] }), { status: 404, mentions: 'not found' });
    await c.create('limited', { slug: victim.slug });
    await expectRefused(c, () => c.create('limited'), { status: 400, code: 'LINK_LIMIT_REACHED', mentions: 'limit' });
  });

  it.each([
    { name: 'unknown id', id: () => 'lnk_nope' },
    { name: "another account's link", id: (c: Ctx) => c.seededLink('other').id },
  ])('refused: $name, and the link stays with its owner', async (row) => {
    const c = await setup();
    const id = row.id(c);
    await expectRefused(c, () => c.service.delete(c.acc.demo, id), { status: 404, mentions: `link '${id}' not found` });
    const theirs = c.seededLink('other');
    expect(c.store.state.linkOf(c.acc.other, theirs.id)).toBe(theirs);
    await c.service.delete(c.acc.other, theirs.id);
  });
});

describe('isolation (D15): another account looks exactly like nothing', () => {
  const rows: Array<{ name: string; op: (c: Ctx) => Promise<unknown>; expected: (c: Ctx) => ApiError }> = [
    { name: 'update of their link', op: (c) => c.service.update(c.acc.demo, c.seededLink('other').id, { destinationUrl: URL_A }), expected: (c) => errors.linkNotFound(c.seededLink('other').id) },
    { name: 'delete of their link', op: (c) => c.service.delete(c.acc.limited, c.seededLink('demo').id), expected: (c) => errors.linkNotFound(c.seededLink('demo').id) },
    { name: 'their tag id', op: (c) => c.create('other', { tags: [c.tag('demo', 0)] }), expected: (c) => errors.tagNotFound(c.tag('demo', 0).id!) },
    { name: 'their custom domain', op: (c) => c.create('other', { domain: 'go.acme.test' }), expected: () => errors.domainNotFound('go.acme.test') },
  ];
  it.each(rows)('$name', async (row) => {
    const c = await setup();
    const error = (await row.op(c).catch((e: unknown) => e)) as ApiError;
    const want = row.expected(c);
    expect({ status: error.status, description: error.errorDescription, code: error.code }).toEqual({ status: want.status, description: want.errorDescription, code: want.code });
  });
});
