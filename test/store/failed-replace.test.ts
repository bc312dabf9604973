// A reset or a snapshot restore whose write fails (no file descriptor left, a full disk) is a 500
// that changes nothing: not the data in memory, which keeps answering and taking changes as
// before, and not the db on disk, which a crash right after reopens whole, with every change
// acknowledged before and after the failed replace (issue 23, item 2).
import { mkdirSync, rmSync } from 'node:fs';
import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { StoreOp } from '../../src/core/changes.js';
import type { LinkRecord } from '../../src/core/model.js';
import type { DataStore } from '../../src/store/file/data-store.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { openData } from '../../src/store/file/open-data.js';
import { expectError } from '../helpers/contract-assert.js';
import { useFileDb } from '../helpers/file-db.js';
import { createTestApp, DEMO, fixtures, TEST_SEED, type TestApp } from '../helpers/test-app.js';

const db = useFileDb('slm-failed-replace-');

/** How a replace is made to fail: `arm` makes the next ones fail, `disarm` lets them through. */
interface Fault {
  store: DataStore;
  arm: () => void;
  disarm: () => void;
}

const faults: [string, () => Fault][] = [
  [
    // The new base's temporary file cannot be written (EISDIR): a real failure of the file store.
    'its new base cannot be written',
    () => ({
      store: db.logStore(),
      arm: () => mkdirSync(`${db.file}.replacing`),
      disarm: () => rmSync(`${db.file}.replacing`, { recursive: true }),
    }),
  ],
  [
    // Any step of it fails before the base is replaced (EMFILE opening a log to read its generation).
    'a step before the new base fails',
    () => {
      const fault = { on: false };
      const emfile = () => Object.assign(new Error('EMFILE: too many open files, open'), { code: 'EMFILE' });
      const store = db.faultyStore((ops) => (fault.on && ops.some((op) => op.op === 'replace') ? emfile() : undefined));
      return { store, arm: () => void (fault.on = true), disarm: () => void (fault.on = false) };
    },
  ],
];

const create = async (app: TestApp, slug: string): Promise<string> => {
  const res = await app.request.post('/links').set('x-api-key', DEMO).send({ destinationUrl: `https://example.com/${slug}`, domain: 'short.test', tags: [{ name: slug }], slug });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
};

const replaces: [string, (app: TestApp) => Promise<Response>][] = [
  ['POST /__admin/reset', (app) => app.request.post('/__admin/reset')],
  ['POST /__admin/snapshots/{name}/restore', (app) => app.request.post('/__admin/snapshots/before/restore')],
];

describe.each(faults)('a replace whose write fails (%s)', (_fault, makeFault) => {
  it.each(replaces)('%s: a 500 that changes nothing in memory or on disk; a crash after it reopens with every acknowledged link', async (_route, replace) => {
    const fault = makeFault();
    const app = await createTestApp({ store: fault.store });
    db.running.push(app);
    const kept = await create(app, 'kept-before');
    expect((await app.request.post('/__admin/snapshots/before')).status).toBe(201);
    const deleted = await create(app, 'deleted-after-snapshot');
    expect((await app.request.delete(`/links/${deleted}`).set('x-api-key', DEMO)).status).toBe(204);
    const before = await app.data();

    fault.arm();
    const res = await replace(app);
    expectError(res, 500);
    expect(await app.data(), 'the data in memory after a failed replace').toEqual(before);
    fault.disarm();

    // Still the old state: its links can be changed, and new ones made with the same slugs' neighbours.
    const after = await create(app, 'made-after');
    expect((await app.request.put(`/links/${kept}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/changed' })).status).toBe(200);
    const acknowledged = await app.data();

    // A crash now (the store is never closed): the db reopens, passes its integrity check, and holds it all.
    const reopened = await openData(db.logStore(), () => Promise.reject(new Error('must not re-seed')), false);
    expect(reopened.seeded).toBe(false);
    expect(reopened.data).toEqual(acknowledged);
    expect(reopened.data.links.get(after)).toBeDefined();
    expect(reopened.data.links.get(kept)?.destinationUrl).toBe('https://example.com/changed');
    expect(reopened.data.links.get(deleted)).toBeUndefined();
  });
});

describe('a replace that succeeds after one that failed', () => {
  it('is applied whole, in memory and on disk', async () => {
    const fault = faults[0]?.[1]() as Fault;
    const app = await createTestApp({ store: fault.store });
    db.running.push(app);
    const seeded = await app.data();
    await create(app, 'gone-by-reset');
    fault.arm();
    expectError(await app.request.post('/__admin/reset'), 500);
    fault.disarm();
    expect((await app.request.post('/__admin/reset')).status).toBe(200);
    expect(await app.data()).toEqual(seeded);
    const made = await create(app, 'after-reset');
    const reopened = await openData(db.logStore(), () => Promise.reject(new Error('must not re-seed')), false);
    expect(reopened.data).toEqual(await app.data());
    expect(reopened.data.links.get(made)).toBeDefined();
  });
});

describe('changes made while a replace is written', () => {
  /** A LocalLinkStore whose writes are recorded, the replace's held until `settle` is called. */
  function holdingReplace() {
    const written: string[] = [];
    let settle: (ok: boolean) => void = () => undefined;
    const persist = (ops: StoreOp[]): Promise<void> => {
      written.push(...ops.map((op) => op.op));
      if (!ops.some((op) => op.op === 'replace')) return Promise.resolve();
      return new Promise((resolve, reject) => (settle = (ok) => (ok ? resolve() : reject(new Error('EMFILE: too many open files')))));
    };
    const data = buildSeed(TEST_SEED, fixtures);
    const store = new LocalLinkStore(data, persist, ':memory:');
    const link = [...data.links.values()][0] as LinkRecord;
    return { store, written, settle: (ok: boolean) => settle(ok), link, fresh: () => buildSeed(TEST_SEED + 1, fixtures) };
  }

  it.each([
    [true, 'are made on the new state, once it is written'],
    [false, 'are made on the old state, once the replace has failed'],
  ])('(replace written: %s) %s, and never written before the replace is', async (ok) => {
    const t = holdingReplace();
    const before = t.store.state.data;
    const next = t.fresh();
    const replace = t.store.replaceAll(next);
    const clicks = t.store.addClicks(t.link.id, 3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.written, 'written while the replace is held').toEqual(['replace']);
    t.settle(ok);
    await (ok ? expect(replace).resolves.toBeUndefined() : expect(replace).rejects.toThrow(/EMFILE/));
    const clicked = await clicks;
    expect(t.store.state.data).toBe(ok ? next : before);
    if (ok) expect(clicked?.clickCount).toBe(next.links.get(t.link.id)?.clickCount);
    else expect(clicked).toBe(t.link);
    expect(t.written).toEqual(ok && !next.links.get(t.link.id) ? ['replace'] : ['replace', 'put-link']);
  });
});
