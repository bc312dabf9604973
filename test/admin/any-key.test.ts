// --accept-any-key: an unknown key becomes a fresh account on first use, on the default domain,
// with data seeded from the key alone, so parallel CI jobs with their own keys never meet.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Link } from '../../src/core/api-types.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

const JOB_A = 'ci-job-a';
const JOB_B = 'ci-job-b';
const CREATE = { destinationUrl: 'https://example.com/ci', domain: 'short.test', tags: [{ name: 'ci' }] };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ acceptAnyKey: true });
});

interface AccountView {
  id: string;
  apiKey: string;
  linkLimit: number;
  links: number;
  domains: { id: string; name: string }[];
}
async function accounts(app: TestApp = t): Promise<AccountView[]> {
  const res = await app.request.get('/__admin/accounts');
  expectAdminResponse(res, 'GET', '/__admin/accounts');
  return (res.body as { accounts: AccountView[] }).accounts;
}
async function linksOf(key: string, app: TestApp = t): Promise<{ text: string; links: Link[] }> {
  const res = await app.request.get('/__admin/links').query({ account: key });
  expectAdminResponse(res, 'GET', '/__admin/links');
  expect(res.status).toBe(200);
  return { text: res.text, links: (res.body as { links: Link[] }).links };
}
/** A first use that creates nothing: a delete of a link that does not exist. */
async function touch(key: string, app: TestApp = t): Promise<void> {
  expectError(await app.request.delete('/links/lnk_0000000000000000').set('x-api-key', key), 404);
}

describe('with acceptAnyKey', () => {
  it('an unknown key creates (201) in a fresh account that has the default domain only', async () => {
    expect((await accounts()).map((account) => account.apiKey)).not.toContain(JOB_A);
    const res = await t.request.post('/links').set('x-api-key', JOB_A).send(CREATE);
    expectLink(res, 201);
    const account = (await accounts()).find((candidate) => candidate.apiKey === JOB_A);
    expect(account?.domains).toEqual([{ id: (await t.data()).defaultDomain.id, name: 'short.test' }]);
    const { links } = await linksOf(JOB_A);
    expect(links[0]).toEqual(res.body);
    expect(account?.links).toBe(links.length);
    for (const link of links) expect(link.domain.name).toBe('short.test');
  });

  it("a custom domain of another account stays out of reach (404)", async () => {
    expectError(await t.request.post('/links').set('x-api-key', JOB_A).send({ ...CREATE, domain: 'go.acme.test' }), 404);
  });

  it("ci-job-b cannot see, update or delete ci-job-a's links", async () => {
    const created = (await t.request.post('/links').set('x-api-key', JOB_A).send(CREATE)).body as Link;
    await touch(JOB_B);
    const aLinks = (await linksOf(JOB_A)).links;
    const bLinks = (await linksOf(JOB_B)).links;
    expect(bLinks.map((link) => link.id)).not.toContain(created.id);
    expect(bLinks.some((link) => aLinks.some((other) => other.id === link.id))).toBe(false);
    for (const link of aLinks) {
      expectError(await t.request.put(`/links/${link.id}`).set('x-api-key', JOB_B).send({ tags: [] }), 404);
      expectError(await t.request.delete(`/links/${link.id}`).set('x-api-key', JOB_B), 404);
    }
    expect((await linksOf(JOB_A)).links).toEqual(aLinks);
    expectError(await t.request.put(`/links/${created.id}`).set('x-api-key', DEMO).send({ tags: [] }), 404);
  });

  it('tags are per account: the same tag name in two jobs is two tags', async () => {
    const a = (await t.request.post('/links').set('x-api-key', JOB_A).send(CREATE)).body as Link;
    const b = (await t.request.post('/links').set('x-api-key', JOB_B).send(CREATE)).body as Link;
    expect(a.tags[0]?.id).not.toBe(b.tags[0]?.id);
  });

  it('the same key on two fresh apps gets byte-identical seeded data, whatever other keys came first', async () => {
    const second = await createTestApp({ acceptAnyKey: true });
    await touch(JOB_A);
    await touch(JOB_B, second);
    await t.request.post('/links').set('x-api-key', JOB_B).send(CREATE);
    await touch(JOB_A, second);
    const first = await linksOf(JOB_A);
    expect(first.links.length).toBeGreaterThan(0);
    expect((await linksOf(JOB_A, second)).text).toBe(first.text);
    const accountOf = async (app: TestApp) => JSON.stringify((await accounts(app)).find((account) => account.apiKey === JOB_A));
    expect(await accountOf(second)).toBe(await accountOf(t));
  });

  it('an account made on first use is named after its key, not the whole key: ci-job-a and ci-job-b read apart', async () => {
    for (const key of [JOB_A, JOB_B]) expectError(await t.request.delete('/links/lnk_0000000000000000').set('x-api-key', key), 404);
    const names = ((await t.request.get('/__admin/accounts')).body as { accounts: { apiKey: string; name: string }[] }).accounts.filter((a) => a.apiKey.startsWith('ci-job-'));
    expect(names.map((a) => a.name).sort()).toEqual(['Account for key ci…-a', 'Account for key ci…-b']);
  });

  it('two different keys get different seeded data', async () => {
    await touch(JOB_A);
    await touch(JOB_B);
    const a = (await linksOf(JOB_A)).links.map((link) => link.slug);
    const b = (await linksOf(JOB_B)).links.map((link) => link.slug);
    expect(a).not.toEqual(b);
    expect(new Set([...a, ...b]).size).toBe(a.length + b.length);
  });

  it('fixture keys keep their own accounts, and a missing key is still a 401', async () => {
    expect((await accounts()).filter((account) => account.apiKey === DEMO)).toHaveLength(1);
    expectError(await t.request.post('/links').send(CREATE), 401);
    expectError(await t.request.post('/links').set('x-api-key', '').send(CREATE), 401);
    expect(await accounts()).toHaveLength(3);
  });

  it('a reset forgets the keys made on first use', async () => {
    await touch(JOB_A);
    expect(await accounts()).toHaveLength(4);
    await t.request.post('/__admin/reset');
    expect(await accounts()).toHaveLength(3);
  });
});

describe('without acceptAnyKey (the default)', () => {
  it('an unknown key is a 401 and makes no account', async () => {
    const plain = await createTestApp();
    expectError(await plain.request.post('/links').set('x-api-key', JOB_A).send(CREATE), 401);
    expect((await accounts(plain)).map((account) => account.apiKey)).not.toContain(JOB_A);
    const res = await plain.request.get('/__admin/links').query({ account: JOB_A });
    expectAdminResponse(res, 'GET', '/__admin/links');
    expect(res.status).toBe(404);
  });
});

// Issue 11 item 3: accounts made on first use were seeded from a 32-bit FNV-1a hash of the key, so
// these two keys got the same seed, hence the same account id and the same link and tag ids.
describe('two keys whose 32-bit seeds collided (ci-122789, ci-339192)', () => {
  const FIRST = 'ci-122789';
  const SECOND = 'ci-339192';
  let dir: string;
  const running: { close: () => Promise<void> }[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slm-any-key-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((mock) => mock.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  /** The mock over a lowdb file in `dir`: a second call is a restart on the same data. */
  const start = async (): Promise<TestApp> => {
    const store = new LogFileStore(join(dir, 'db.json'), { durable: true, compactAfterBytes: 1 << 30 });
    const app = await createTestApp({ store, acceptAnyKey: true });
    running.push(app);
    return app;
  };
  const restart = async (app: TestApp): Promise<TestApp> => {
    await running.splice(running.indexOf(app), 1)[0]?.close();
    return start();
  };
  /** The second key may not change or delete any of these links of the first. */
  async function expectOutOfReach(app: TestApp, links: Link[]): Promise<void> {
    for (const link of links) {
      expectError(await app.request.put(`/links/${link.id}`).set('x-api-key', SECOND).send({ destinationUrl: 'https://evil.test/' }), 404);
      expectError(await app.request.delete(`/links/${link.id}`).set('x-api-key', SECOND), 404);
    }
  }
  const fnv1a = (value: string): number => {
    let hash = 0x811c9dc5;
    for (const char of value) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
    return hash;
  };

  it('the premise: their old 32-bit seeds are equal', () => {
    expect(fnv1a(FIRST)).toBe(fnv1a(SECOND));
  });

  it('are two accounts: the second key cannot see, update or delete the first one\'s links, also after a restart', async () => {
    let app = await start();
    expectLink(await app.request.post('/links').set('x-api-key', FIRST).send(CREATE), 201);
    const firstLinks = (await linksOf(FIRST, app)).links;
    await touch(SECOND, app);
    const secondLinks = (await linksOf(SECOND, app)).links;
    expect((await linksOf(FIRST, app)).links).toEqual(firstLinks);
    expect(secondLinks.length).toBeGreaterThan(0);
    expect(secondLinks.filter((link) => firstLinks.some((other) => other.id === link.id))).toEqual([]);
    await expectOutOfReach(app, firstLinks);
    const ids = (await accounts(app)).filter((account) => [FIRST, SECOND].includes(account.apiKey)).map((account) => account.id);
    expect(new Set(ids).size).toBe(2);

    app = await restart(app);
    expect((await accounts(app)).filter((account) => [FIRST, SECOND].includes(account.apiKey)).map((account) => account.id).sort()).toEqual([...ids].sort());
    expect((await linksOf(FIRST, app)).links).toEqual(firstLinks);
    expect((await linksOf(SECOND, app)).links).toEqual(secondLinks);
    await expectOutOfReach(app, firstLinks);
    for (const link of secondLinks) {
      expectError(await app.request.delete(`/links/${link.id}`).set('x-api-key', FIRST), 404);
    }
    expect((await linksOf(FIRST, app)).links).toEqual(firstLinks);
    expect((await linksOf(SECOND, app)).links).toEqual(secondLinks);
  });
});
