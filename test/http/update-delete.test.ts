// PUT /links/{id} and DELETE /links/{id}: successes, refusals (as tables) and a full lifecycle.
import { describe, expect, test } from 'vitest';
import type { Test } from 'supertest';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import type { MockData } from '../../src/core/model.js';
import { createTestApp, DEMO, LIMITED, OTHER, type TestApp } from '../helpers/test-app.js';

type Body = Record<string, unknown>;
interface LinkBody {
  id: string;
  slug: string;
  destinationUrl: string;
  domain: { id: string; name: string };
  tags: { id: string; name: string }[];
  [field: string]: unknown;
}

interface Facts {
  /** A seeded link of demo-key that has at least one tag. */
  demoLinkId: string;
  otherLinkId: string;
  demoTag: { id: string; name: string };
  otherTag: { id: string; name: string };
}

function fail(message: string): never {
  throw new Error(message);
}

async function factsOf(t: TestApp): Promise<Facts> {
  const data = await t.data();
  const accountId = (key: string) => data.accounts.find((a) => a.apiKey === key)?.id ?? fail(`no account ${key}`);
  const demo = accountId(DEMO);
  const other = accountId(OTHER);
  const links = [...data.links.values()];
  const tag = (owner: string) => {
    const found = Object.values(data.tags).find((candidate) => candidate.accountId === owner) ?? fail('no tag');
    return { id: found.id, name: found.name };
  };
  return {
    demoLinkId: links.find((l) => l.accountId === demo && l.tagIds.length > 0)?.id ?? fail('no tagged demo link'),
    otherLinkId: links.find((l) => l.accountId === other)?.id ?? fail('no other link'),
    demoTag: tag(demo),
    otherTag: tag(other),
  };
}

const put = (t: TestApp, key: string | undefined, id: string, body: Body): Test =>
  (key === undefined ? t.request.put(`/links/${id}`) : t.request.put(`/links/${id}`).set('x-api-key', key)).send(body);
const del = (t: TestApp, key: string | undefined, id: string): Test =>
  key === undefined ? t.request.delete(`/links/${id}`) : t.request.delete(`/links/${id}`).set('x-api-key', key);
const create = async (t: TestApp, body: Body): Promise<LinkBody> => {
  const res = await t.request.post('/links').set('x-api-key', DEMO).send({ tags: [], domain: 'short.test', ...body });
  expectLink(res, 201);
  return res.body as LinkBody;
};
const get = async (t: TestApp, id: string) => (await t.data()).links.get(id);

async function snapshot(t: TestApp): Promise<{ links: unknown; data: MockData }> {
  const health = await t.request.get('/__admin/health').expect(200);
  return { links: (health.body as { links: unknown }).links, data: await t.data() };
}

describe('PUT /links/{id} succeeds', () => {
  test('200: destinationUrl only; everything else stays', async () => {
    const t = await createTestApp();
    const { demoLinkId } = await factsOf(t);
    const before = await get(t, demoLinkId);
    const res = await put(t, DEMO, demoLinkId, { destinationUrl: 'https://example.com/new?x=1' });
    expectLink(res, 200);
    const link = res.body as LinkBody;
    expect(link).toMatchObject({ id: demoLinkId, slug: before?.slug, destinationUrl: 'https://example.com/new?x=1' });
    expect(link.tags.map((tag) => tag.id)).toEqual(before?.tagIds);
    expect(link.tags.length).toBeGreaterThan(0);
  });

  test('200: tags only replaces the whole set, destinationUrl stays', async () => {
    const t = await createTestApp();
    const { demoLinkId, demoTag } = await factsOf(t);
    const url = (await get(t, demoLinkId))?.destinationUrl;
    const res = await put(t, DEMO, demoLinkId, { tags: [{ name: 'fresh' }, demoTag] });
    expectLink(res, 200);
    const link = res.body as LinkBody;
    expect(link.destinationUrl).toBe(url);
    expect(link.tags.map((tag) => tag.name)).toEqual(['fresh', demoTag.name]);
    expect(link.tags[1]).toEqual(demoTag);
    const emptied = await put(t, DEMO, demoLinkId, { tags: [] });
    expectLink(emptied, 200);
    expect((emptied.body as LinkBody).tags).toEqual([]);
  });

  test('200: both fields; the link keeps id, slug, domain and createdAt', async () => {
    const t = await createTestApp();
    const link = await create(t, { destinationUrl: 'https://example.com/a', slug: 'keep-me', tags: [{ name: 'old' }] });
    const res = await put(t, DEMO, link.id, { destinationUrl: 'https://example.com/b', tags: [{ name: 'new' }] });
    expectLink(res, 200);
    const { destinationUrl, tags, ...rest } = res.body as LinkBody;
    const { destinationUrl: _u, tags: _t, ...restBefore } = link;
    expect(rest).toEqual(restBefore);
    expect(destinationUrl).toBe('https://example.com/b');
    expect(tags.map((tag) => tag.name)).toEqual(['new']);
  });
});

// A seeded link's title is its destination's website's ("present only if available"); the mock
// fetches no page, so a new destination has none, and the old one's does not stay with it.
describe('PUT /links/{id} and the title of a seeded link', () => {
  async function titled(t: TestApp): Promise<{ id: string; title: string; destinationUrl: string }> {
    const data = await t.data();
    const demo = data.accounts.find((a) => a.apiKey === DEMO)?.id;
    const link = [...data.links.values()].find((l) => l.accountId === demo && l.title !== undefined) ?? fail('no titled demo link');
    return { id: link.id, title: link.title as string, destinationUrl: link.destinationUrl };
  }

  test('a new destinationUrl drops it, in the answer and in the store', async () => {
    const t = await createTestApp();
    const { id } = await titled(t);
    const res = await put(t, DEMO, id, { destinationUrl: 'https://example.com/elsewhere' });
    expectLink(res, 200);
    expect(res.body).not.toHaveProperty('title');
    expect(await get(t, id)).not.toHaveProperty('title');
    // A later update of the tags alone brings nothing back.
    expect((await put(t, DEMO, id, { tags: [] })).body).not.toHaveProperty('title');
  });

  test('tags alone, or the same destinationUrl again, keep it', async () => {
    const t = await createTestApp();
    const { id, title, destinationUrl } = await titled(t);
    expect((await put(t, DEMO, id, { tags: [{ name: 'kept-title' }] })).body).toMatchObject({ title });
    expect((await put(t, DEMO, id, { destinationUrl, tags: [] })).body).toMatchObject({ title });
    expect(await get(t, id)).toMatchObject({ title, destinationUrl });
  });
});

interface Row {
  name: string;
  key: string | undefined;
  id: (f: Facts) => string;
  body: Body | ((f: Facts) => Body);
  status: number;
  mentions?: string | RegExp;
}

const own = (f: Facts): string => f.demoLinkId;
const UNKNOWN_ID = 'lnk_DoesNotExist0000';
const UNKNOWN_TAG = 'tag_DoesNotExist0000';
const okBody = { destinationUrl: 'https://example.com/ok' };

const putRows: Row[] = [
  { name: 'empty body {}', key: DEMO, id: own, body: {}, status: 400, mentions: 'at least one' },
  { name: 'slug', key: DEMO, id: own, body: { slug: 'new-slug' }, status: 400, mentions: "'slug'" },
  { name: 'domain', key: DEMO, id: own, body: { ...okBody, domain: 'go.acme.test' }, status: 400, mentions: "'domain'" },
  { name: 'another unknown field', key: DEMO, id: own, body: { ...okBody, title: 'x' }, status: 400, mentions: "'title'" },
  { name: 'invalid URL', key: DEMO, id: own, body: { destinationUrl: 'example.com' }, status: 400, mentions: 'destinationUrl' },
  { name: 'tag id with another name', key: DEMO, id: own, body: (f) => ({ tags: [{ name: 'n' }, { id: f.demoTag.id, name: 'renamed' }] }), status: 400, mentions: 'renamed' },
  { name: 'missing key', key: undefined, id: own, body: okBody, status: 401, mentions: 'x-api-key' },
  { name: 'unknown key', key: 'nobody-key', id: own, body: okBody, status: 401, mentions: 'x-api-key' },
  { name: 'missing key before 404', key: undefined, id: () => UNKNOWN_ID, body: okBody, status: 401 },
  { name: 'unknown key before 404 and 400', key: 'nobody-key', id: () => UNKNOWN_ID, body: { slug: 'x' }, status: 401 },
  { name: 'missing key before 400', key: undefined, id: own, body: {}, status: 401 },
  { name: 'unknown id', key: DEMO, id: () => UNKNOWN_ID, body: okBody, status: 404, mentions: UNKNOWN_ID },
  { name: "another account's link", key: DEMO, id: (f) => f.otherLinkId, body: okBody, status: 404, mentions: 'not found' },
  { name: 'unknown tag id', key: DEMO, id: own, body: { tags: [{ name: 'n' }, { id: UNKNOWN_TAG, name: 'x' }] }, status: 404, mentions: UNKNOWN_TAG },
  { name: "another account's tag id", key: DEMO, id: own, body: (f) => ({ tags: [f.otherTag] }), status: 404, mentions: 'not found' },
];

const deleteRows: Omit<Row, 'body'>[] = [
  { name: 'missing key', key: undefined, id: own, status: 401, mentions: 'x-api-key' },
  { name: 'unknown key', key: 'nobody-key', id: own, status: 401, mentions: 'x-api-key' },
  { name: 'missing key before 404', key: undefined, id: () => UNKNOWN_ID, status: 401 },
  { name: 'unknown id', key: DEMO, id: () => UNKNOWN_ID, status: 404, mentions: UNKNOWN_ID },
  { name: "another account's link", key: DEMO, id: (f) => f.otherLinkId, status: 404, mentions: 'not found' },
];

describe('refusals change nothing', () => {
  test.each(putRows)('PUT $status $name', async (row) => {
    const t = await createTestApp();
    const facts = await factsOf(t);
    const before = await snapshot(t);
    const res = await put(t, row.key, row.id(facts), typeof row.body === 'function' ? row.body(facts) : row.body);
    expectError(res, row.status, row.mentions ? { mentions: row.mentions } : {});
    expect(await snapshot(t)).toEqual(before);
  });

  test.each(deleteRows)('DELETE $status $name', async (row) => {
    const t = await createTestApp();
    const before = await snapshot(t);
    expectError(await del(t, row.key, row.id(await factsOf(t))), row.status, row.mentions ? { mentions: row.mentions } : {});
    expect(await snapshot(t)).toEqual(before);
  });
});

describe("another account's link is a 404 exactly like an unknown id (D15)", () => {
  test.each(['PUT', 'DELETE'])('%s', async (method) => {
    const t = await createTestApp();
    const { otherLinkId } = await factsOf(t);
    const send = (id: string) => (method === 'PUT' ? put(t, DEMO, id, okBody) : del(t, DEMO, id));
    const [theirs, unknown] = [await send(otherLinkId), await send(UNKNOWN_ID)];
    expectError(theirs, 404);
    expectError(unknown, 404);
    expect(theirs.headers['content-type']).toBe(unknown.headers['content-type']);
    expect(JSON.stringify(theirs.body).replaceAll(otherLinkId, 'ID')).toBe(JSON.stringify(unknown.body).replaceAll(UNKNOWN_ID, 'ID'));
    // It is still there for its owner.
    expectLink(await put(t, OTHER, otherLinkId, { destinationUrl: 'https://example.com/mine' }), 200);
  });
});

describe('DELETE /links/{id}', () => {
  test('204 with an empty body; the link is gone and its slug is free again', async () => {
    const t = await createTestApp();
    const link = await create(t, { destinationUrl: 'https://example.com/x', slug: 'gone-soon' });
    const res = await del(t, DEMO, link.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers['content-length'] ?? '0').toBe('0');
    expect(await get(t, link.id)).toBeUndefined();
    expectError(await put(t, DEMO, link.id, okBody), 404, { mentions: link.id });
    expectError(await del(t, DEMO, link.id), 404, { mentions: link.id });
    const again = await create(t, { destinationUrl: 'https://example.com/y', slug: 'gone-soon' });
    expect(again.id).not.toBe(link.id);
    expect(again.slug).toBe('gone-soon');
  });
});

test('a delete frees a place under the link limit', async () => {
  const t = await createTestApp();
  const create = () => t.request.post('/links').set('x-api-key', LIMITED).send({ tags: [], destinationUrl: 'https://example.com/l', domain: 'short.test' });
  expectError(await create(), 400, { code: 'LINK_LIMIT_REACHED' });
  const id = (await t.linksOf(LIMITED))[0]?.id ?? fail('no limited link');
  expect((await del(t, LIMITED, id)).status).toBe(204);
  expectLink(await create(), 201);
  expectError(await create(), 400, { code: 'LINK_LIMIT_REACHED' });
});

test('lifecycle: create → update → delete → 404', async () => {
  const t = await createTestApp();
  const before = await snapshot(t);
  const link = await create(t, { destinationUrl: 'https://example.com/1', tags: [{ name: 'life' }] });
  expect((await snapshot(t)).links).toBe((before.links as number) + 1);
  const updated = await put(t, DEMO, link.id, { destinationUrl: 'https://example.com/2', tags: [] });
  expectLink(updated, 200);
  expect(updated.body).toMatchObject({ id: link.id, destinationUrl: 'https://example.com/2', tags: [] });
  expect((await del(t, DEMO, link.id)).status).toBe(204);
  expectError(await put(t, DEMO, link.id, okBody), 404);
  expectError(await del(t, DEMO, link.id), 404);
  expect((await snapshot(t)).links).toBe(before.links);
});
