// A change the store cannot save (disk full, read-only) is refused and undone: the state in
// memory never holds what is not on disk.
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import { addClicks, setLinkLimit } from '../../src/core/admin-ops.js';
import { ApiError } from '../../src/core/errors.js';
import { LinkService } from '../../src/core/links.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import type { AccountRecord } from '../../src/core/model.js';
import { cryptoRandomInt } from '../../src/core/random.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';
import { copyData } from '../../src/core/link-table.js';

async function failingService() {
  const disk = { full: true };
  const store = new LocalLinkStore(
    buildSeed(TEST_SEED, fixtures),
    () => (disk.full ? Promise.reject(new Error('ENOSPC: no space left on device')) : Promise.resolve()),
    ':memory:',
  );
  const service = new LinkService({ store, random: cryptoRandomInt, now: () => new Date('2026-11-22T00:00:00Z') });
  const state = store.state;
  const account = state.accountByKey('demo-key') as AccountRecord;
  const link = state.linksOf(account)[0];
  if (!link) throw new Error('fixture has no demo link');
  return { service, state, account, link, disk, snapshot: () => copyData(state.data) };
}
type Failing = Awaited<ReturnType<typeof failingService>>;

describe('a change that cannot be saved', () => {
  it.each([
    ['create with new tags', (t: Failing) => t.service.create(t.account, { destinationUrl: 'https://x.test', domain: 'short.test', slug: 'unsaved', tags: [{ name: 'brand-new' }] })],
    ['update', (t: Failing) => t.service.update(t.account, t.link.id, { destinationUrl: 'https://y.test', tags: [{ name: 'also-new' }] })],
    ['delete', (t: Failing) => t.service.delete(t.account, t.link.id)],
    ['clicks', (t: Failing) => addClicks(t.service, t.link.id, 5)],
    ['link limit', (t: Failing) => setLinkLimit(t.service, 'demo-key', 1)],
  ])('%s: is a 500 saying it was not made, and changes nothing', async (_name, act) => {
    const t = await failingService();
    const before = t.snapshot();
    const refusal = await act(t).then(() => undefined, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 500 });
    expect((refusal as ApiError).errorDescription).toMatch(/could not be saved.*ENOSPC/);
    expect(t.snapshot()).toEqual(before); // deep equality: an undone delete may re-add the link at the end
    // The indexes were undone too: the slug is free and the link count unchanged.
    expect(t.state.isSlugTaken(t.state.data.defaultDomain.id, 'unsaved')).toBe(false);
    expect(t.state.linkOf(t.account, t.link.id)).toBeDefined();
  });

  it.each([
    ['create', (t: Failing) => t.service.create(t.account, { destinationUrl: 'https://x.test', domain: 'short.test', tags: [{ name: 'brand-new' }] })],
    ['update', (t: Failing) => t.service.update(t.account, t.link.id, { tags: [{ name: 'brand-new' }] })],
  ])('a refused %s leaves no trace of its new tag: once the disk has room, the same tag name makes a tag that exists', async (_name, act) => {
    const t = await failingService();
    await expect(act(t)).rejects.toBeInstanceOf(ApiError);
    t.disk.full = false;
    const saved = await act(t);
    const tag = saved.tags[0];
    expect(tag?.name).toBe('brand-new');
    // The tag the link names is in the data (what the store writes), not only in an index.
    expect(t.state.data.tags[tag?.id as string]).toEqual({ id: tag?.id, accountId: t.account.id, name: 'brand-new' });
    expect(t.state.tagByName(t.account, 'brand-new')?.id).toBe(tag?.id);
  });
});
