// --accept-any-key on the file store: the account a new key makes is durable before any answer
// that depends on it, and undone in memory when its write fails, so that no later change of that
// key is written without it (issue 23, item 1: on a full disk the account stayed in memory only,
// the key's creates were logged, and after a crash the db failed its integrity check).
import { describe, expect, it } from 'vitest';
import { buildAccountForKey, buildSeed } from '../../fixtures/seed.js';
import type { StoreOp } from '../../src/core/changes.js';
import { LinkService } from '../../src/core/links.js';
import type { DataStore } from '../../src/store/file/data-store.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { openData } from '../../src/store/file/open-data.js';
import { accountForKey } from '../../src/process/account-for-key.js';
import { expectError } from '../helpers/contract-assert.js';
import { enospc, useFileDb } from '../helpers/file-db.js';
import { createTestApp, fixtures, TEST_SEED } from '../helpers/test-app.js';

const KEY = 'ci-job-disk-full';
const db = useFileDb('slm-any-key-write-');

/** The file store, with a disk that fills up and frees again on demand. */
function fillableStore(): { store: DataStore; disk: { full: boolean } } {
  const disk = { full: false };
  return { store: db.faultyStore(() => (disk.full ? enospc() : undefined)), disk };
}

const CREATE = { destinationUrl: 'https://example.com/after', domain: 'short.test', tags: [{ name: 'ci' }] };

describe('--accept-any-key, a new key whose account cannot be written', () => {
  it('is a 500 that makes no account; once the disk has room the key works, and a crash after it reopens whole', async () => {
    const { store, disk } = fillableStore();
    const app = await createTestApp({ store, acceptAnyKey: true });
    db.running.push(app);
    disk.full = true;
    const refused = await app.request.delete('/links/lnk_0000000000000000').set('x-api-key', KEY);
    expectError(refused, 500);
    expect(refused.body).toMatchObject({ errorDescription: expect.stringMatching(/could not be saved.*ENOSPC/) });
    expect(await app.accountByKey(KEY), 'the account in memory after its write failed').toBeUndefined();
    disk.full = false;

    const created = await app.request.post('/links').set('x-api-key', KEY).send(CREATE);
    expect(created.status, created.text).toBe(201);
    const acknowledged = await app.data();
    // A crash now: the db reopens, passes its integrity check, and holds the key's account and link.
    const reopened = await openData(db.logStore(), () => Promise.reject(new Error('must not re-seed')), false);
    expect(reopened.data).toEqual(acknowledged);
    expect(reopened.data.links.get((created.body as { id: string }).id)).toBeDefined();
  });
});

describe('requests with one new key while its account is written', () => {
  /** A LocalLinkStore whose first write is held until `settle`; later ones end as it did, at once. */
  function heldWrites() {
    const written: StoreOp[][] = [];
    let verdict: boolean | undefined;
    let settleFirst: (ok: boolean) => void = () => undefined;
    const persist = (ops: StoreOp[]): Promise<void> => {
      written.push(ops);
      if (verdict !== undefined) return verdict ? Promise.resolve() : Promise.reject(enospc());
      return new Promise((resolve, reject) => (settleFirst = (ok) => (ok ? resolve() : reject(enospc()))));
    };
    const settle = (ok: boolean): void => {
      verdict = ok;
      settleFirst(ok);
    };
    const store = new LocalLinkStore(buildSeed(TEST_SEED, fixtures), persist, ':memory:');
    const service = new LinkService({ store, createAccount: accountForKey(store, buildAccountForKey), random: () => 0, now: () => new Date(0) });
    const turns = async (): Promise<void> => {
      for (let n = 0; n < 5; n += 1) await new Promise((resolve) => setImmediate(resolve));
    };
    return { store, service, written, settle, turns };
  }

  it.each([
    [true, 'both get the account once it is written'],
    // The second then tries to write the account itself, on the same full disk.
    [false, 'both are refused when its write fails, and nothing of it stays'],
  ])('(written: %s) %s; neither gets an answer before the write ends', async (ok) => {
    const t = heldWrites();
    const settled: string[] = [];
    const outcome = (which: string) => (result: Promise<unknown>) =>
      result.then(
        (account) => void settled.push(`${which}: ${(account as { apiKey: string }).apiKey}`),
        () => void settled.push(`${which}: refused`),
      );
    const first = outcome('first')(Promise.resolve(t.service.authenticate(KEY)));
    await t.turns();
    const second = outcome('second')(Promise.resolve(t.service.authenticate(KEY)));
    await t.turns();
    expect(settled, 'answered before the account was written').toEqual([]);
    const accountWrite = ['put-account', 'put-tag', 'put-tag', 'put-tag', 'put-link', 'put-link', 'put-link', 'put-link', 'put-link'];
    expect(t.written.map((ops) => ops.map((op) => op.op)), 'one write: the account with its tags and links').toEqual([accountWrite]);
    t.settle(ok);
    await Promise.all([first, second]);
    expect(settled.sort()).toEqual(ok ? [`first: ${KEY}`, `second: ${KEY}`] : ['first: refused', 'second: refused']);
    expect(t.store.state.accountByKey(KEY) !== undefined).toBe(ok);
    if (!ok) expect([...t.store.state.data.links.values()].filter((link) => !t.store.state.accountById(link.accountId))).toEqual([]);
    // Never a change of the key without its account: only account writes were asked for.
    expect(t.written.map((ops) => ops.map((op) => op.op))).toEqual(ok ? [accountWrite] : [accountWrite, accountWrite]);
  });
});
