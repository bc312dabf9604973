// A change the store cannot save (disk full, read-only) is refused and undone: the state in
// memory never holds what is not on disk.
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import { addClicks, setLinkLimit } from '../../src/core/admin-ops.js';
import { ApiError } from '../../src/core/errors.js';
import { LinkService } from '../../src/core/links.js';
import type { AccountRecord } from '../../src/core/model.js';
import { cryptoRandomInt } from '../../src/core/random.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';

function failingService() {
  const disk = { full: true };
  const service = new LinkService({
    data: buildSeed(TEST_SEED, fixtures),
    persist: () => (disk.full ? Promise.reject(new Error('ENOSPC: no space left on device')) : Promise.resolve()),
    random: cryptoRandomInt,
    now: () => new Date('2026-11-22T00:00:00Z'),
  });
  const account = service.state.accountByKey('demo-key') as AccountRecord;
  const link = service.state.linksOf(account)[0];
  if (!link) throw new Error('fixture has no demo link');
  return { service, account, link, disk, snapshot: () => structuredClone(service.state.data) };
}

describe('a change that cannot be saved', () => {
  it.each([
    ['create with new tags', (t: ReturnType<typeof failingService>) => t.service.create(t.account, { destinationUrl: 'https://x.test', domain: 'short.test', slug: 'unsaved', tags: [{ name: 'brand-new' }] })],
    ['update', (t: ReturnType<typeof failingService>) => t.service.update(t.account, t.link.id, { destinationUrl: 'https://y.test', tags: [{ name: 'also-new' }] })],
    ['delete', (t: ReturnType<typeof failingService>) => t.service.delete(t.account, t.link.id)],
    ['clicks', (t: ReturnType<typeof failingService>) => addClicks(t.service, t.link.id, 5)],
    ['link limit', (t: ReturnType<typeof failingService>) => setLinkLimit(t.service, 'demo-key', 1)],
  ])('%s: is a 500 saying it was not made, and changes nothing', async (_name, act) => {
    const t = failingService();
    const before = t.snapshot();
    const refusal = await act(t).then(() => undefined, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 500 });
    expect((refusal as ApiError).errorDescription).toMatch(/could not be saved.*ENOSPC/);
    expect(t.snapshot()).toEqual(before); // deep equality: an undone delete may re-add the link at the end
    // The indexes were undone too: the slug is free and the link count unchanged.
    expect(t.service.state.isSlugTaken(t.service.state.data.defaultDomain.id, 'unsaved')).toBe(false);
    expect(t.service.state.linkOf(t.account, t.link.id)).toBeDefined();
  });

  it.each([
    ['create', (t: ReturnType<typeof failingService>) => t.service.create(t.account, { destinationUrl: 'https://x.test', domain: 'short.test', tags: [{ name: 'brand-new' }] })],
    ['update', (t: ReturnType<typeof failingService>) => t.service.update(t.account, t.link.id, { tags: [{ name: 'brand-new' }] })],
  ])('a refused %s leaves no trace of its new tag: once the disk has room, the same tag name makes a tag that exists', async (_name, act) => {
    const t = failingService();
    await expect(act(t)).rejects.toBeInstanceOf(ApiError);
    t.disk.full = false;
    const saved = await act(t);
    const tag = saved.tags[0];
    expect(tag?.name).toBe('brand-new');
    // The tag the link names is in the data (what the store writes), not only in an index.
    expect(t.service.state.data.tags[tag?.id as string]).toEqual({ id: tag?.id, accountId: t.account.id, name: 'brand-new' });
    expect(t.service.state.tagByName(t.account, 'brand-new')?.id).toBe(tag?.id);
  });
});
