// POST /links: the successes, then every documented refusal as a row of a table. Every refused
// request must leave the store exactly as it was (D19: "a refused request changes nothing").
import { describe, expect, test } from 'vitest';
import type { Test } from 'supertest';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import type { MockData } from '../../src/core/model.js';
import { createTestApp, DEMO, LIMITED, OTHER, type TestApp } from '../helpers/test-app.js';

type Body = Record<string, unknown>;
interface LinkBody {
  id: string;
  slug: string;
  shortUrl: string;
  destinationUrl: string;
  clickCount?: number;
  title?: string;
  domain: { id: string; name: string };
  tags: { id: string; name: string }[];
}

/** A body sent as-is, with this content type. */
class Raw {
  constructor(
    readonly payload: string,
    readonly type: string,
  ) {}
}

/** Seeded data the rows refer to, read from the fresh app instead of hard-coded. */
interface Facts {
  demoTag: { id: string; name: string };
  otherTag: { id: string; name: string };
  demoSlugOnShort: string;
  otherSlugOnShort: string;
  demoSlugOnAcme: string;
}

async function factsOf(t: TestApp): Promise<Facts> {
  const data = await t.data();
  const account = (key: string) => data.accounts.find((a) => a.apiKey === key) ?? fail(`no account ${key}`);
  const demo = account(DEMO);
  const other = account(OTHER);
  const acme = demo.domains.find((d) => d.name === 'go.acme.test') ?? fail('no go.acme.test');
  const tagOf = (accountId: string) => Object.values(data.tags).find((tag) => tag.accountId === accountId) ?? fail('no tag');
  const slugOf = (accountId: string, domainId: string) =>
    [...data.links.values()].find((l) => l.accountId === accountId && l.domainId === domainId)?.slug ?? fail('no link');
  const { id: demoTagId, name: demoTagName } = tagOf(demo.id);
  const { id: otherTagId, name: otherTagName } = tagOf(other.id);
  return {
    demoTag: { id: demoTagId, name: demoTagName },
    otherTag: { id: otherTagId, name: otherTagName },
    demoSlugOnShort: slugOf(demo.id, data.defaultDomain.id),
    otherSlugOnShort: slugOf(other.id, data.defaultDomain.id),
    demoSlugOnAcme: slugOf(demo.id, acme.id),
  };
}

function fail(message: string): never {
  throw new Error(message);
}

const valid: Body = { tags: [], destinationUrl: 'https://example.com/page', domain: 'short.test' };
const withBody = (patch: Body): Body => ({ ...valid, ...patch });
const without = (field: string): Body => Object.fromEntries(Object.entries(valid).filter(([name]) => name !== field));

function post(t: TestApp, key: string | undefined, body: Body | Raw): Test {
  const req = key === undefined ? t.request.post('/links') : t.request.post('/links').set('x-api-key', key);
  return body instanceof Raw ? req.set('content-type', body.type).send(body.payload) : req.send(body);
}

async function snapshot(t: TestApp): Promise<{ links: unknown; data: MockData }> {
  const health = await t.request.get('/__admin/health').expect(200);
  return { links: (health.body as { links: unknown }).links, data: await t.data() };
}

describe('POST /links succeeds', () => {
  test('201 on the default domain with a random 7-character slug', async () => {
    const t = await createTestApp();
    const before = await snapshot(t);
    const res = await post(t, DEMO, valid);
    expectLink(res, 201);
    const link = res.body as LinkBody;
    expect(link.slug).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(link).toMatchObject({ destinationUrl: 'https://example.com/page', domain: { name: 'short.test' }, clickCount: 0, tags: [] });
    expect(link.shortUrl).toBe(`https://short.test/${link.slug}`);
    expect(link.title).toBeUndefined();
    expect((await snapshot(t)).links).toBe((before.links as number) + 1);
  });

  test('201 on a custom domain with an explicit slug', async () => {
    const t = await createTestApp();
    const res = await post(t, DEMO, withBody({ domain: 'go.acme.test', slug: 'pricing' }));
    expectLink(res, 201);
    expect(res.body).toMatchObject({ slug: 'pricing', domain: { name: 'go.acme.test' }, shortUrl: 'https://go.acme.test/pricing' });
  });

  // openapi.yaml's DomainName: matched as DNS names are (case, surrounding spaces), answered as spelled in the account.
  test.each([' GO.ACME.TEST ', 'Go.Acme.Test'])('201 on a custom domain named %j', async (domain) => {
    const t = await createTestApp();
    const res = await post(t, DEMO, withBody({ domain, slug: 'cased' }));
    expectLink(res, 201);
    expect(res.body).toMatchObject({ domain: { name: 'go.acme.test' }, shortUrl: 'https://go.acme.test/cased' });
  });

  test('404 for a domain with a trailing dot, and a refused create changes nothing', async () => {
    const t = await createTestApp();
    const before = await snapshot(t);
    expectError(await post(t, DEMO, withBody({ domain: 'short.test.' })), 404, { mentions: 'short.test.' });
    expect(await snapshot(t)).toEqual(before);
  });

  test('201 with an empty slug generates one', async () => {
    const t = await createTestApp();
    const res = await post(t, DEMO, withBody({ slug: '' }));
    expectLink(res, 201);
    expect((res.body as LinkBody).slug).toMatch(/^[A-Za-z0-9]{7}$/);
  });

  test('tags: a new name creates a tag, an existing name or id reuses it (same id), duplicates collapse', async () => {
    const t = await createTestApp();
    const { demoTag } = await factsOf(t);
    const first = await post(t, DEMO, withBody({ tags: [{ name: 'q3-campaign' }, { name: demoTag.name }, { name: 'q3-campaign' }] }));
    expectLink(first, 201);
    const [created, reused, ...rest] = (first.body as LinkBody).tags;
    expect(rest).toEqual([]);
    expect(created).toMatchObject({ name: 'q3-campaign', id: expect.stringMatching(/^tag_/) as unknown });
    expect(created?.id).not.toBe(demoTag.id);
    expect(reused).toEqual(demoTag);

    const second = await post(t, DEMO, withBody({ tags: [{ name: '  q3-campaign ' }, { id: demoTag.id, name: demoTag.name }] }));
    expectLink(second, 201);
    expect((second.body as LinkBody).tags).toEqual([created, demoTag]);
  });

  test('the same slug on another domain is fine', async () => {
    const t = await createTestApp();
    const { demoSlugOnAcme } = await factsOf(t);
    const res = await post(t, DEMO, withBody({ slug: demoSlugOnAcme }));
    expectLink(res, 201);
    expect(res.body).toMatchObject({ slug: demoSlugOnAcme, domain: { name: 'short.test' } });
    expectLink(await post(t, DEMO, withBody({ slug: 'twice' })), 201);
    expectLink(await post(t, DEMO, withBody({ slug: 'twice', domain: 'go.acme.test' })), 201);
  });
});

interface Row {
  name: string;
  key: string | undefined;
  body: Body | Raw | ((facts: Facts) => Body);
  status: number;
  code?: string;
  mentions?: string | RegExp;
}

const UNKNOWN_TAG = 'tag_DoesNotExist0000';
const newTag = { name: 'never-created' };
const url = (length: number): string => `https://example.com/${'a'.repeat(length - 'https://example.com/'.length)}`;
const bigJson = JSON.stringify({ ...valid, destinationUrl: url(2000), padding: 'x'.repeat(1_100_000) });

const rows: Row[] = [
  // 401 (D14)
  { name: 'missing key', key: undefined, body: valid, status: 401, mentions: 'x-api-key' },
  { name: 'empty key', key: '', body: valid, status: 401, mentions: 'x-api-key' },
  { name: 'unknown key', key: 'nobody-key', body: valid, status: 401, mentions: 'x-api-key' },
  { name: 'no key + invalid body', key: undefined, body: {}, status: 401 },
  { name: 'unknown key + invalid body', key: 'nobody-key', body: { slug: 'a b' }, status: 401 },
  { name: 'no key + malformed JSON', key: undefined, body: new Raw('{"tags": [', 'application/json'), status: 401 },
  { name: 'no key + text/plain', key: undefined, body: new Raw('hello', 'text/plain'), status: 401 },
  { name: 'no key + body over 1 MiB', key: undefined, body: new Raw(bigJson, 'application/json'), status: 401 },
  // 400: body shape (D7, D13, D18)
  { name: 'missing tags', key: DEMO, body: without('tags'), status: 400, mentions: "'tags'" },
  { name: 'missing destinationUrl', key: DEMO, body: without('destinationUrl'), status: 400, mentions: "'destinationUrl'" },
  { name: 'missing domain', key: DEMO, body: without('domain'), status: 400, mentions: "'domain'" },
  { name: 'unknown field', key: DEMO, body: withBody({ colour: 'red' }), status: 400, mentions: "'colour'" },
  { name: 'URL without scheme', key: DEMO, body: withBody({ destinationUrl: 'example.com' }), status: 400, mentions: 'destinationUrl' },
  { name: 'URL without host (mailto:)', key: DEMO, body: withBody({ destinationUrl: 'mailto:a@b.c' }), status: 400, mentions: 'destinationUrl' },
  { name: "URL 'https://'", key: DEMO, body: withBody({ destinationUrl: 'https://' }), status: 400, mentions: 'destinationUrl' },
  { name: 'URL of 2049 characters', key: DEMO, body: withBody({ destinationUrl: url(2049) }), status: 400, mentions: 'destinationUrl' },
  { name: 'slug of 51 characters', key: DEMO, body: withBody({ slug: 's'.repeat(51) }), status: 400, mentions: 'slug' },
  { name: 'slug with a space', key: DEMO, body: withBody({ slug: 'a b' }), status: 400, mentions: 'slug' },
  { name: 'tag name of 51 characters', key: DEMO, body: withBody({ tags: [{ name: 't'.repeat(51) }] }), status: 400, mentions: /tags\.0\.name/ },
  // 400: slug taken in the domain (D11)
  { name: 'slug taken on short.test', key: DEMO, body: (f) => withBody({ slug: f.demoSlugOnShort, tags: [newTag] }), status: 400, mentions: /already taken in domain 'short\.test'/ },
  { name: "slug taken on short.test by another account", key: DEMO, body: (f) => withBody({ slug: f.otherSlugOnShort }), status: 400, mentions: 'already taken' },
  { name: 'slug taken on a custom domain', key: DEMO, body: (f) => withBody({ slug: f.demoSlugOnAcme, domain: 'go.acme.test' }), status: 400, mentions: 'go.acme.test' },
  // 400 LINK_LIMIT_REACHED (D5)
  { name: 'account at its link limit', key: LIMITED, body: withBody({ tags: [newTag] }), status: 400, code: 'LINK_LIMIT_REACHED' },
  // 404 (D8, D9) and 400 tag name mismatch
  { name: 'unknown domain', key: DEMO, body: withBody({ domain: 'unknown.test', tags: [newTag] }), status: 404, mentions: "'unknown.test'" },
  { name: "another account's custom domain", key: DEMO, body: withBody({ domain: 'links.globex.test' }), status: 404, mentions: 'links.globex.test' },
  { name: 'unknown tag id', key: DEMO, body: withBody({ tags: [newTag, { id: UNKNOWN_TAG, name: 'x' }] }), status: 404, mentions: UNKNOWN_TAG },
  { name: "another account's tag id", key: DEMO, body: (f) => withBody({ tags: [f.otherTag] }), status: 404, mentions: 'not found' },
  { name: 'tag id with another name', key: DEMO, body: (f) => withBody({ tags: [newTag, { id: f.demoTag.id, name: 'renamed' }] }), status: 400, mentions: 'renamed' },
  // D19: key → body shape → link limit → domain → tag ids (404, then 400) → slug taken
  { name: 'limited + invalid body → body shape', key: LIMITED, body: without('domain'), status: 400, mentions: "'domain'" },
  { name: 'limited + unknown domain → limit', key: LIMITED, body: withBody({ domain: 'unknown.test' }), status: 400, code: 'LINK_LIMIT_REACHED' },
  { name: 'limited + unknown tag + taken slug → limit', key: LIMITED, body: (f) => withBody({ slug: f.otherSlugOnShort, tags: [{ id: UNKNOWN_TAG, name: 'x' }] }), status: 400, code: 'LINK_LIMIT_REACHED' },
  { name: 'unknown domain + unknown tag → domain', key: DEMO, body: withBody({ domain: 'unknown.test', tags: [{ id: UNKNOWN_TAG, name: 'x' }] }), status: 404, mentions: 'domain' },
  { name: 'unknown tag + taken slug → tag', key: DEMO, body: (f) => withBody({ slug: f.demoSlugOnShort, tags: [{ id: UNKNOWN_TAG, name: 'x' }] }), status: 404, mentions: UNKNOWN_TAG },
  { name: 'name mismatch + unknown tag → unknown tag', key: DEMO, body: (f) => withBody({ tags: [{ id: f.demoTag.id, name: 'renamed' }, { id: UNKNOWN_TAG, name: 'x' }] }), status: 404, mentions: UNKNOWN_TAG },
  { name: 'name mismatch + taken slug → mismatch', key: DEMO, body: (f) => withBody({ slug: f.demoSlugOnShort, tags: [{ id: f.demoTag.id, name: 'renamed' }] }), status: 400, mentions: 'renamed' },
];

describe('POST /links refuses, and a refused request changes nothing', () => {
  test.each(rows)('$status $name', async (row) => {
    const t = await createTestApp();
    const before = await snapshot(t);
    const body = typeof row.body === 'function' ? row.body(await factsOf(t)) : row.body;
    const res = await post(t, row.key, body);
    expectError(res, row.status, { ...(row.code ? { code: row.code } : {}), ...(row.mentions ? { mentions: row.mentions } : {}) });
    expect(await snapshot(t)).toEqual(before);
  });
});
