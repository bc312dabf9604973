// The path where a response would break the contract: the client gets a 500 Error object and the
// log gets a loud CONTRACT VIOLATION line. And the real handlers never take that path.
import { describe, expect, test } from 'vitest';
import type { Response } from 'supertest';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import type { OperationHandler } from '../../src/http/operations.js';
import { createTestApp, DEMO, OTHER, type TestApp } from '../helpers/test-app.js';

const valid = { tags: [], destinationUrl: 'https://example.com/page', domain: 'short.test' };
const link = {
  id: 'lnk_Forced0000000000',
  createdAt: '2026-11-22T09:15:04.512Z',
  destinationUrl: 'https://example.com/page',
  slug: 'forced',
  domain: { id: 'dom_Forced0000000000', name: 'short.test' },
  shortUrl: 'https://short.test/forced',
  clickCount: 0,
  tags: [],
};
const { shortUrl: _dropped, ...linkWithoutShortUrl } = link;

async function forced(createLink: OperationHandler): Promise<{ res: Response; lines: string[]; t: TestApp }> {
  const lines: string[] = [];
  const t = await createTestApp({ handlers: { createLink }, log: (line) => lines.push(line) });
  const res = await t.request.post('/links').set('x-api-key', DEMO).send(valid);
  return { res, lines, t };
}

const isViolation = (line: string): boolean => line.startsWith('CONTRACT VIOLATION');

test('a forced contract-valid response passes through untouched (the override works)', async () => {
  const { res, lines } = await forced((_req, res) => void res.status(201).json(link));
  expectLink(res, 201);
  expect(res.body).toEqual(link);
  expect(lines.filter(isViolation)).toEqual([]);
});

const badBodies: { name: string; body: unknown; mentions: RegExp }[] = [
  { name: 'a Link missing shortUrl', body: linkWithoutShortUrl, mentions: /shortUrl/ },
  { name: 'clickCount of the wrong type', body: { ...link, clickCount: 'many' }, mentions: /clickCount/ },
  { name: 'an undeclared field', body: { ...link, internalNote: 'x' }, mentions: /internalNote/ },
  { name: 'a shortUrl that is not https://<domain>/<slug>', body: { ...link, shortUrl: 'ftp://x' }, mentions: /shortUrl/ },
  { name: 'an Error body on a 201', body: { errorDescription: 'oops' }, mentions: /contract/ },
];

describe('a 201 whose body breaks the contract → 500 + CONTRACT VIOLATION log line', () => {
  test.each(badBodies)('$name', async ({ body, mentions }) => {
    const { res, lines } = await forced((_req, res) => void res.status(201).json(body));
    expectError(res, 500, { mentions: /would break the contract/ });
    expectError(res, 500, { mentions });
    const violations = lines.filter(isViolation);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain('POST /links');
  });
});

const undeclared: { name: string; status: number; body: unknown }[] = [
  { name: '418 with an Error body', status: 418, body: { errorDescription: 'I am a teapot' } },
  { name: '200 instead of 201', status: 200, body: link },
  { name: '409 with an Error body', status: 409, body: { errorDescription: 'conflict' } },
];

describe('an undeclared status', () => {
  test.each(undeclared)('→ 500 Error object: $name', async ({ status, body }) => {
    const { res } = await forced((_req, res) => void res.status(status).json(body));
    expectError(res, 500);
  });

  test.each(undeclared)('is reported as a contract violation: $name', async ({ status, body }) => {
    const { res, lines } = await forced((_req, res) => void res.status(status).json(body));
    expectError(res, 500, { mentions: /would break the contract/ });
    expect(lines.filter(isViolation)).toHaveLength(1);
  });
});

/** A tiny seeded PRNG: the same seed gives the same run, no Math.random. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const DOCUMENTED: Record<string, number[]> = { POST: [201, 400, 401, 404], PUT: [200, 400, 401, 404], DELETE: [204, 401, 404] };
const TAG_POOL = ['alpha', 'beta', ' gamma ', 'q3-campaign', 'spring sale', 'beta'];

test('the real handlers never break the contract over 300 seeded-random operations', async () => {
  const rand = mulberry32(20261122);
  const int = (max: number): number => Math.floor(rand() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const lines: string[] = [];
  const serverRandom = mulberry32(7);
  const t = await createTestApp({ log: (line) => lines.push(line), random: (max) => Math.floor(serverRandom() * max), now: () => new Date('2026-11-22T10:00:00.000Z') });
  const data = await t.data();
  const keys = [DEMO, OTHER] as const;
  const live = new Map<string, string[]>();
  const domains = new Map<string, string[]>();
  const tagIds = new Map<string, Map<string, string>>();
  for (const key of keys) {
    const account = data.accounts.find((a) => a.apiKey === key);
    if (!account) throw new Error(`no account ${key}`);
    live.set(key, [...data.links.values()].filter((l) => l.accountId === account.id).map((l) => l.id));
    domains.set(key, ['short.test', ...account.domains.map((d) => d.name)]);
    tagIds.set(key, new Map());
  }
  const deleted: string[] = [];
  let expectedLinks = data.links.size;

  const randomTags = (key: string) =>
    Array.from({ length: int(4) }, () => {
      const name = pick(TAG_POOL);
      const id = tagIds.get(key)?.get(name.trim());
      return id !== undefined && rand() < 0.5 ? { id, name } : { name };
    });
  const check = (method: string, res: Response, expected: number): void => {
    expect(DOCUMENTED[method]).toContain(res.status);
    expect({ method, status: res.status, body: res.body as unknown }).toMatchObject({ status: expected });
    if (res.status >= 400) expectError(res, expected);
    else if (res.status !== 204) {
      expectLink(res, expected);
      const body = res.body as { tags: { id: string; name: string }[] };
      for (const tag of body.tags) tagIds.get(currentKey)?.set(tag.name, tag.id);
    }
  };

  let currentKey: string = DEMO;
  for (let i = 0; i < 300; i += 1) {
    currentKey = pick(keys);
    const key = currentKey;
    const ids = live.get(key) ?? [];
    const roll = rand();
    if (roll < 0.4 || ids.length === 0) {
      const slug = pick([undefined, '', `r${i}-${int(1000)}`]);
      const body = { tags: randomTags(key), destinationUrl: `https://example.com/${i}?q=${int(99)}`, domain: pick(domains.get(key) ?? []), ...(slug === undefined ? {} : { slug }) };
      const res = await t.request.post('/links').set('x-api-key', key).send(body);
      check('POST', res, 201);
      const created = res.body as { id: string; slug: string; shortUrl: string; domain: { name: string }; tags: { name: string }[] };
      expect(created.shortUrl).toBe(`https://${created.domain.name}/${created.slug}`);
      expect(created.tags.map((tag) => tag.name)).toEqual([...new Set(body.tags.map((tag) => tag.name.trim()))]);
      ids.push(created.id);
      expectedLinks += 1;
    } else if (roll < 0.7) {
      const id = pick(ids);
      const body = rand() < 0.4 ? { destinationUrl: `https://example.org/u${i}` } : rand() < 0.5 ? { tags: randomTags(key) } : { destinationUrl: `https://example.org/b${i}`, tags: randomTags(key) };
      check('PUT', await t.request.put(`/links/${id}`).set('x-api-key', key).send(body), 200);
    } else if (roll < 0.9) {
      const id = ids.splice(int(ids.length), 1)[0] ?? '';
      check('DELETE', await t.request.delete(`/links/${id}`).set('x-api-key', key), 204);
      deleted.push(id);
      expectedLinks -= 1;
    } else {
      // A refusal: a deleted link, another account's link, or a slug already taken.
      const otherKey = key === DEMO ? OTHER : DEMO;
      const target = pick([...deleted, ...(live.get(otherKey) ?? []).slice(0, 5)]);
      if (rand() < 0.5 && target !== undefined) check('PUT', await t.request.put(`/links/${target}`).set('x-api-key', key).send({ tags: [] }), 404);
      else if (target !== undefined) check('DELETE', await t.request.delete(`/links/${target}`).set('x-api-key', key), 404);
      const taken = data.links.get(pick(ids));
      if (taken && taken.domainId === data.defaultDomain.id) {
        check('POST', await t.request.post('/links').set('x-api-key', key).send({ ...valid, slug: taken.slug }), 400);
      }
    }
  }
  expect(lines.filter((line) => /^(CONTRACT VIOLATION|INTERNAL ERROR)/.test(line))).toEqual([]);
  expect(lines.every((line) => / (200|201|204|400|404) /.test(line))).toBe(true);
  const health = await t.request.get('/__admin/health');
  expect((health.body as { links: number }).links).toBe(expectedLinks);
});
