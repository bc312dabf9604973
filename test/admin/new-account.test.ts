// POST /__admin/accounts: a fresh account per test suite, seeded like an unknown key under
// --accept-any-key, usable at once, isolated from every other account. Runs on every store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Link } from '../../src/core/api-types.js';
import type { StoreOp } from '../../src/core/changes.js';
import { memoryStore, type DataStore } from '../../src/store/file/data-store.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

interface AccountView {
  id: string;
  name: string;
  apiKey: string;
  linkLimit: number;
  links: number;
  domains: { id: string; name: string }[];
}

const CREATE = { destinationUrl: 'https://example.com/suite', domain: 'short.test', tags: [] };

async function newAccount(app: TestApp, body?: object, status = 201): Promise<AccountView> {
  const req = app.request.post('/__admin/accounts');
  const res = body === undefined ? await req : await req.send(body);
  expectAdminResponse(res, 'POST', '/__admin/accounts');
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as AccountView;
}

async function linksOf(app: TestApp, key: string): Promise<Link[]> {
  const res = await app.request.get('/__admin/links').query({ account: key });
  expectAdminResponse(res, 'GET', '/__admin/links');
  return (res.body as { links: Link[] }).links;
}

describe('POST /__admin/accounts', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });

  it('without a body: 201, a random key, the default domain, no links, usable at once', async () => {
    const account = await newAccount(t);
    expect(account.apiKey).toMatch(/^key-[0-9a-f]{16}$/);
    expect(account.domains.map((domain) => domain.name)).toEqual(['short.test']);
    expect(account.links).toBe(0);
    expect(await linksOf(t, account.apiKey)).toEqual([]);
    expectLink(await t.request.post('/links').set('x-api-key', account.apiKey).send(CREATE), 201);
    const listed = (await t.request.get('/__admin/accounts')).body as { accounts: AccountView[] };
    expect(listed.accounts.find((candidate) => candidate.apiKey === account.apiKey)).toEqual({ ...account, links: account.links + 1 });
  });

  it('each call is a new account with a key of its own', async () => {
    const [a, b] = [await newAccount(t, {}), await newAccount(t, {})];
    expect(a.apiKey).not.toBe(b.apiKey);
    expect(a.id).not.toBe(b.id);
  });

  it('with seedLinks 5: the same data --accept-any-key gives that key', async () => {
    const made = await newAccount(t, { apiKey: 'suite-same', seedLinks: 5 });
    const anyKey = await createTestApp({ acceptAnyKey: true });
    expectError(await anyKey.request.delete('/links/lnk_0000000000000000').set('x-api-key', 'suite-same'), 404);
    const seeded = ((await anyKey.request.get('/__admin/accounts')).body as { accounts: AccountView[] }).accounts.find((a) => a.apiKey === 'suite-same');
    expect(made).toEqual(seeded);
    expect(await linksOf(t, 'suite-same')).toEqual(await linksOf(anyKey, 'suite-same'));
  });

  it('takes the key, name and limit given; the limit is enforced', async () => {
    const account = await newAccount(t, { apiKey: 'suite-a', name: 'Suite A', linkLimit: 0 });
    expect(account).toMatchObject({ apiKey: 'suite-a', name: 'Suite A', linkLimit: 0 });
    expectError(await t.request.post('/links').set('x-api-key', 'suite-a').send(CREATE), 400, { code: 'LINK_LIMIT_REACHED' });
  });

  it('starts empty: with linkLimit 3, three creates pass and the fourth is LINK_LIMIT_REACHED', async () => {
    const account = await newAccount(t, { linkLimit: 3 });
    expect(account).toMatchObject({ linkLimit: 3, links: 0 });
    for (let i = 0; i < 3; i += 1) expectLink(await t.request.post('/links').set('x-api-key', account.apiKey).send(CREATE), 201);
    expectError(await t.request.post('/links').set('x-api-key', account.apiKey).send(CREATE), 400, { code: 'LINK_LIMIT_REACHED' });
  });

  it('seedLinks N seeds the first N links the key would get, and counts against the limit', async () => {
    const full = await newAccount(t, { apiKey: 'suite-seeded', seedLinks: 5 });
    const fullLinks = await linksOf(t, full.apiKey);
    const fresh = await createTestApp();
    const two = await newAccount(fresh, { apiKey: 'suite-seeded', seedLinks: 2, linkLimit: 3 });
    expect(two).toMatchObject({ links: 2, linkLimit: 3 });
    const twoLinks = await linksOf(fresh, two.apiKey);
    expect(new Set(twoLinks.map((link) => link.id)).size).toBe(2);
    expect(fullLinks).toEqual(expect.arrayContaining(twoLinks));
    expectLink(await fresh.request.post('/links').set('x-api-key', two.apiKey).send(CREATE), 201);
    expectError(await fresh.request.post('/links').set('x-api-key', two.apiKey).send(CREATE), 400, { code: 'LINK_LIMIT_REACHED' });
  });

  it('seedLinks up to its limit and up to 1000; more is a 400 saying which bound', async () => {
    expect(await newAccount(t, { seedLinks: 2, linkLimit: 2 })).toMatchObject({ links: 2, linkLimit: 2 });
    expect(await newAccount(t, { seedLinks: 1000 })).toMatchObject({ links: 1000, linkLimit: 1000 });
    expectError(await t.request.post('/__admin/accounts').send({ seedLinks: 4, linkLimit: 3 }), 400, { mentions: /seedLinks \(4\).*linkLimit \(3\)/ });
    expectError(await t.request.post('/__admin/accounts').send({ seedLinks: 1001 }), 400, { mentions: /seedLinks/ });
  });

  it('without a name, it is named after its key (first and last characters, never the whole key), so two accounts read apart', async () => {
    const [a, b] = [await newAccount(t), await newAccount(t)];
    expect(a.name).toBe(`Account for key ${a.apiKey.slice(0, 4)}…${a.apiKey.slice(-4)}`);
    expect(a.name).not.toBe(b.name);
    expect(a.name).not.toContain(a.apiKey);
    expect((await newAccount(t, { apiKey: 'ci-job-4711' })).name).toBe('Account for key ci…11');
    expect((await newAccount(t, { apiKey: 'abc' })).name).toBe('Account for key …');
  });

  it("is isolated: another account's links are out of its reach, and its own out of theirs", async () => {
    const a = await newAccount(t, { apiKey: 'suite-a', seedLinks: 1 });
    const b = await newAccount(t, { apiKey: 'suite-b' });
    const [linkOfA] = await linksOf(t, a.apiKey);
    const [linkOfDemo] = await linksOf(t, DEMO);
    expectError(await t.request.delete(`/links/${linkOfA?.id}`).set('x-api-key', b.apiKey), 404);
    expectError(await t.request.delete(`/links/${linkOfA?.id}`).set('x-api-key', DEMO), 404);
    expectError(await t.request.put(`/links/${linkOfDemo?.id}`).set('x-api-key', a.apiKey).send({ destinationUrl: 'https://evil.test/' }), 404);
    expectError(await t.request.post('/links').set('x-api-key', a.apiKey).send({ ...CREATE, domain: 'go.acme.test' }), 404);
  });

  it('409 for a key that already names an account (a fixture one or a made one), and nothing changes', async () => {
    const before = (await t.request.get('/__admin/accounts')).body as { accounts: AccountView[] };
    const res = await t.request.post('/__admin/accounts').send({ apiKey: DEMO, name: 'Taken' });
    expectAdminResponse(res, 'POST', '/__admin/accounts');
    expectError(res, 409, { mentions: /already names an account/ });
    expect((await t.request.get('/__admin/accounts')).body).toEqual(before);
    await newAccount(t, { apiKey: 'suite-twice' });
    expectError(await t.request.post('/__admin/accounts').send({ apiKey: 'suite-twice' }), 409);
  });

  it('two creates of one key at once: one 201, one 409', async () => {
    const answers = await Promise.all([1, 2].map(() => t.request.post('/__admin/accounts').send({ apiKey: 'suite-race' })));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
  });

  it.each([
    [{ apiKey: '' }],
    [{ apiKey: 'has space' }],
    [{ apiKey: 'x'.repeat(201) }],
    [{ apiKey: 42 }],
    [{ name: '' }],
    [{ name: 'bell\u0007' }],
    [{ linkLimit: -1 }],
    [{ linkLimit: 1.5 }],
    [{ linkLimit: '3' }],
    [{ seedLinks: -1 }],
    [{ seedLinks: 1.5 }],
    [{ seedLinks: 1001 }],
    [{ seedLinks: 4, linkLimit: 3 }],
    [{ seedLinks: 1, linkLimit: 0 }],
    [{ other: true }],
  ])('400 for an invalid body %j, and nothing is made', async (body) => {
    const count = ((await t.request.get('/__admin/accounts')).body as { accounts: unknown[] }).accounts.length;
    const res = await t.request.post('/__admin/accounts').send(body);
    expectAdminResponse(res, 'POST', '/__admin/accounts');
    expectError(res, 400);
    expect(((await t.request.get('/__admin/accounts')).body as { accounts: unknown[] }).accounts).toHaveLength(count);
  });

  it('400 for a body that is not a JSON object', async () => {
    expectError(await t.request.post('/__admin/accounts').set('content-type', 'application/json').send('[]'), 400);
  });
});

describe('POST /__admin/accounts with an admin token', () => {
  const TOKEN = 'secret-token';
  it('401 without the token or with a wrong one; 201 with it', async () => {
    const t = await createTestApp({ adminToken: TOKEN });
    const missing = await t.request.post('/__admin/accounts').send({});
    expectAdminResponse(missing, 'POST', '/__admin/accounts');
    expectError(missing, 401);
    expectError(await t.request.post('/__admin/accounts').set('x-admin-token', 'wrong').send({}), 401);
    const res = await t.request.post('/__admin/accounts').set('x-admin-token', TOKEN).send({ apiKey: 'suite-token' });
    expectAdminResponse(res, 'POST', '/__admin/accounts');
    expect(res.status).toBe(201);
  });
});

describe('POST /__admin/accounts on the file store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slm-new-account-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a write that fails is a 500 and leaves no account behind: the key is free again', async () => {
    let full = false;
    const base = memoryStore();
    const store: DataStore = {
      ...base,
      write: async (ops: readonly StoreOp[]) => {
        if (full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        return base.write(ops);
      },
    };
    const t = await createTestApp({ store });
    full = true;
    const res = await t.request.post('/__admin/accounts').send({ apiKey: 'suite-lost' });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ errorDescription: expect.stringMatching(/could not be saved.*ENOSPC/) });
    expect(await t.accountByKey('suite-lost')).toBeUndefined();
    expectError(await t.request.delete('/links/lnk_0000000000000000').set('x-api-key', 'suite-lost'), 401);
    full = false;
    await newAccount(t, { apiKey: 'suite-lost' });
  });

  it('the account is in the file once acknowledged: it is there after a restart', async () => {
    const open = () => createTestApp({ store: new LogFileStore(join(dir, 'db.json'), { durable: true, compactAfterBytes: 1 << 30 }) });
    const first = await open();
    const account = await newAccount(first, { name: 'Kept', seedLinks: 2 });
    const links = await linksOf(first, account.apiKey);
    await first.close();
    const second = await open();
    try {
      expect(((await second.request.get('/__admin/accounts')).body as { accounts: AccountView[] }).accounts).toContainEqual(account);
      expect(await linksOf(second, account.apiKey)).toEqual(links);
    } finally {
      await second.close();
    }
  });
});
