// POST /__admin/provider-states: each Pact provider state the mock sets up, made true whatever came
// before, checked through the API as a verifier would meet it. Runs on every store (unit-redis too).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Link } from '../../src/core/api-types.js';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, OTHER, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

const CREATE = { destinationUrl: 'https://example.com/pact', domain: 'short.test', tags: [] };

describe('POST /__admin/provider-states', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });

  async function setUp(state: string, params?: object, action = 'setup', status = 200) {
    const res = await t.request.post('/__admin/provider-states').send({ consumer: 'web', state, action, ...(params && { params }) });
    expectAdminResponse(res, 'POST', '/__admin/provider-states');
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res;
  }
  const create = (key: string, body: object = CREATE) => t.request.post('/links').set('x-api-key', key).send(body);
  const update = (key: string, id: string, body: object) => t.request.put(`/links/${id}`).set('x-api-key', key).send(body);

  it('an unknown state is a 400 naming it and the states the mock knows', async () => {
    const res = await setUp('the moon is full', undefined, 'setup', 400);
    expectError(res, 400, { mentions: /unknown provider state 'the moon is full'.*'no link \{id\}'/ });
  });

  it('values the API itself would refuse are a 400 naming the field, and change nothing', async () => {
    const before = await t.data();
    const refused: Array<[state: string, params: object | undefined, mentions: RegExp]> = [
      [`a link lnk_bad/id exists for the account of ${DEMO}`, undefined, /provider state: id 'lnk_bad\/id' must be letters, digits/],
      [`a link ${'x'.repeat(65)} exists for the account of ${DEMO}`, undefined, /id '.*' must be letters, digits, _ and -, 1 to 64/],
      ['slug has space is taken in short.test', undefined, /must be letters, digits|slug/],
      [`an account with API key ${'k'.repeat(201)}`, undefined, /apiKey '.*' must be visible ASCII/],
      [`a link lnk_pactLink000009 exists for the account of ${DEMO}`, { slug: 'not a slug' }, /params\.slug|slug/],
      [`a link lnk_pactLink000009 exists for the account of ${DEMO}`, { destinationUrl: 'javascript-no-host' }, /destinationUrl/],
      [`a link lnk_pactLink000009 exists for the account of ${DEMO}`, { destinationUrl: `https://example.com/${'a'.repeat(2048)}` }, /destinationUrl/],
      [`a link lnk_pactLink000009 exists for the account of ${DEMO}`, { tags: [{ name: 'bell\u0007' }] }, /tags/],
      [`a link lnk_pactLink000009 exists for the account of ${DEMO}`, { tags: [{ name: 'x'.repeat(51) }] }, /tags/],
    ];
    for (const [state, params, mentions] of refused) {
      const res = await setUp(state, params, 'setup', 400);
      expectError(res, 400, { mentions });
    }
    expect(await t.data()).toEqual(before);
  });

  it('several states, one of them refused: a 400, and none is set up', async () => {
    const before = await t.data();
    const res = await t.request.post('/__admin/provider-states').send({ states: ['an account with API key pact-fresh-key', 'slug has space is taken in short.test'] });
    expectError(res, 400, { mentions: /slug/ });
    expect(await t.accountByKey('pact-fresh-key')).toBeUndefined();
    expect(await t.data()).toEqual(before);
  });

  it('teardown, and a state without a name, change nothing', async () => {
    const before = await t.data();
    expect((await setUp('no link x', undefined, 'teardown')).body).toEqual({ action: 'teardown', states: ['no link x'] });
    expect((await setUp('')).body).toEqual({ action: 'setup', states: [] });
    expect(await t.data()).toEqual(before);
  });

  it('an account with API key: a fixture key is kept; another key gets an account without links, with the tags asked for', async () => {
    await setUp(`an account with API key ${DEMO}`);
    await setUp('an account with API key pact-consumer-key', { apiKey: 'pact-consumer-key', tags: [{ id: 'tag_pactConsumer01', name: 'launch' }] });
    expect(await t.accountByKey(DEMO)).toBeDefined();
    expect(await t.linksOf('pact-consumer-key')).toEqual([]);
    const res = await create('pact-consumer-key', { ...CREATE, tags: [{ id: 'tag_pactConsumer01', name: 'launch' }] });
    expectLink(res, 201);
    // Again: nothing new, the same account and tag.
    await setUp('an account with API key pact-consumer-key', { tags: [{ id: 'tag_pactConsumer01', name: 'launch' }] });
    expect((res.body as Link).tags).toEqual([{ id: 'tag_pactConsumer01', name: 'launch' }]);
  });

  it('a link exists: made with its id, slug, domain, destination and tags; set up again, it is changed back', async () => {
    const state = `a link lnk_pactLink000001 exists for the account of ${DEMO}`;
    const params = { slug: 'pact-made', domain: 'go.acme.test', destinationUrl: 'https://example.com/made', tags: [{ id: 'tag_pactLink000001', name: 'made' }] };
    await setUp(state, params);
    const changed = await update(DEMO, 'lnk_pactLink000001', { destinationUrl: 'https://example.com/changed', tags: [] });
    expectLink(changed, 200);
    expect(changed.body).toMatchObject({ slug: 'pact-made', domain: { name: 'go.acme.test' }, shortUrl: 'https://go.acme.test/pact-made' });
    await setUp(state, params);
    const again = await update(DEMO, 'lnk_pactLink000001', { destinationUrl: 'https://example.com/made' });
    expect(again.body).toMatchObject({ id: 'lnk_pactLink000001', destinationUrl: 'https://example.com/made', tags: [{ id: 'tag_pactLink000001', name: 'made' }] });
  });

  it('ids named as members of every JavaScript object (__proto__, constructor) are ids like any other (issue 23)', async () => {
    for (const id of ['__proto__', 'constructor', 'toString']) {
      const tags = [{ id: `tag${id}`, name: `t-${id}` }, { id, name: `n-${id}` }];
      await setUp(`a link ${id} exists for the account of ${DEMO}`, { slug: `pact${id}`, tags });
      const read = await update(DEMO, id, { destinationUrl: 'https://example.com/again' });
      expectLink(read, 200);
      expect(read.body).toMatchObject({ id, slug: `pact${id}`, tags });
    }
    const data = await t.data();
    expect([...data.links.keys()]).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'toString']));
    expect(Object.keys(data.tags)).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'toString']));
    await setUp('no link __proto__');
    expectError(await update(DEMO, '__proto__', { tags: [] }), 404);
  });

  it("a link exists: moved from another account, and a link holding its slug makes way; the account's limit does not stop it", async () => {
    const other = (await create(OTHER, { ...CREATE, slug: 'pact-held' })).body as Link;
    await setUp(`a link ${other.id} exists for the account of limited-key`, { slug: 'pact-held', domain: 'short.test' });
    expectError(await update(OTHER, other.id, { tags: [] }), 404);
    expectLink(await update('limited-key', other.id, { tags: [] }), 200);
    await setUp(`a link lnk_pactLink000002 exists for the account of ${DEMO}`, { slug: 'pact-held' });
    expectError(await update('limited-key', other.id, { tags: [] }), 404);
    expect((await update(DEMO, 'lnk_pactLink000002', { tags: [] })).body).toMatchObject({ slug: 'pact-held', domain: { name: 'short.test' } });
  });

  it('a link exists, its fields left out: the account\'s link keeps its own', async () => {
    const made = (await create(DEMO, { ...CREATE, domain: 'go.acme.test', tags: [{ name: 'kept' }] })).body as Link;
    await setUp(`a link ${made.id} exists for the account of ${DEMO}`);
    const after = await update(DEMO, made.id, { destinationUrl: 'https://example.com/after' });
    expect(after.body).toMatchObject({ slug: made.slug, domain: made.domain, tags: made.tags });
  });

  it("a link exists in a domain the account may not use is a 404, like the API's", async () => {
    const res = await setUp(`a link lnk_pactLink000003 exists for the account of ${DEMO}`, { domain: 'links.globex.test' }, 'setup', 404);
    expectError(res, 404, { mentions: /links\.globex\.test/ });
  });

  it('no link: the link is deleted, whichever account has it', async () => {
    const link = (await create(OTHER)).body as Link;
    await setUp(`no link ${link.id}`);
    await setUp(`no link ${link.id}`);
    expectError(await update(OTHER, link.id, { tags: [] }), 404);
  });

  it('reached its link limit, then room for a link', async () => {
    await setUp(`the account of ${DEMO} has reached its link limit`);
    expectError(await create(DEMO), 400, { code: 'LINK_LIMIT_REACHED' });
    await setUp(`the account of ${DEMO} has room for a link`);
    expectLink(await create(DEMO), 201);
    await setUp(`the account of ${DEMO} has room for a link`);
    expectLink(await create(DEMO), 201);
  });

  it('slug taken, then slug free', async () => {
    await setUp('slug pact-taken is taken in short.test', { apiKey: OTHER });
    await setUp('slug pact-taken is taken in short.test', { apiKey: OTHER });
    expectError(await create(DEMO, { ...CREATE, slug: 'pact-taken' }), 400, { mentions: /pact-taken/ });
    await setUp('slug pact-taken is free in short.test');
    expectLink(await create(DEMO, { ...CREATE, slug: 'pact-taken' }), 201);
    // A custom domain: its owner's link takes the slug, no apiKey needed.
    await setUp('slug pact-own is taken in go.acme.test');
    expectError(await create(DEMO, { ...CREATE, domain: 'go.acme.test', slug: 'pact-own' }), 400);
  });

  it('set-ups at once that put one link id on two accounts: each a 200 or a 409 Error object, never a 500; the link is a winner\'s (issue 23)', async () => {
    const ids = Array.from({ length: 6 }, (_, i) => `lnk_pactRace00000${i}`);
    const tries = ids.flatMap((id) => [DEMO, OTHER].map((key) => ({ id, key })));
    const answers = await Promise.all(tries.map(({ id, key }) => t.request.post('/__admin/provider-states').send({ state: `a link ${id} exists for the account of ${key}`, params: { slug: `${id}-slug` } })));
    for (const [i, res] of answers.entries()) {
      expectAdminResponse(res, 'POST', '/__admin/provider-states');
      expect([200, 409], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 409) expectError(res, 409, { mentions: new RegExp(tries[i]!.id) });
    }
    for (const id of ids) {
      const winners = tries.filter((one, i) => one.id === id && answers[i]!.status === 200).map((one) => one.key);
      const holders = (await Promise.all([DEMO, OTHER].map(async (key) => ((await t.linksOf(key)).some((link) => link.id === id) ? [key] : [])))).flat();
      expect(holders).toHaveLength(1);
      expect(winners).toContain(holders[0]);
    }
  });

  it('a state whose params are of the wrong type is a 400 naming the param', async () => {
    const res = await setUp(`a link lnk_x exists for the account of ${DEMO}`, { tags: 'launch' }, 'setup', 400);
    expectError(res, 400, { mentions: /params\.tags/ });
  });
});
