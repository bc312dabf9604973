// A start that loaded a large store collects its garbage before listening (src/process/collect-garbage.ts,
// issue 40: at 1,000,000 links ~385 MiB of it kept the process at 3.1x its db file's size).
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectAfterLoad, collectGarbage, COLLECT_BEFORE_LISTENING_LINKS, GROWTH_LEFT_UNCOLLECTED, watchedLoad, type FullCollections } from '../../src/process/collect-garbage.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the collection before listening', () => {
  it('runs from COLLECT_BEFORE_LISTENING_LINKS loaded links, not below', () => {
    let collections = 0;
    expect(collectAfterLoad(COLLECT_BEFORE_LISTENING_LINKS - 1, () => (collections += 1))).toBe(false);
    expect(collections).toBe(0);
    expect(collectAfterLoad(COLLECT_BEFORE_LISTENING_LINKS, () => (collections += 1))).toBe(true);
    expect(collections).toBe(1);
  });

  it("is skipped when V8's own full collection during the load left the heap within GROWTH_LEFT_UNCOLLECTED of its size now", () => {
    let collections = 0;
    const collect = (): void => void (collections += 1);
    const live = 400_000_000;
    const links = COLLECT_BEFORE_LISTENING_LINKS;
    expect(collectAfterLoad(links, collect, { liveAfterLast: live }, () => live * (1 + GROWTH_LEFT_UNCOLLECTED) - 1)).toBe(false);
    expect(collections).toBe(0);
    expect(collectAfterLoad(links, collect, { liveAfterLast: live }, () => live * (1 + GROWTH_LEFT_UNCOLLECTED))).toBe(true);
    // No full collection during the load: all its garbage may be there.
    expect(collectAfterLoad(links, collect, {}, () => 0)).toBe(true);
    expect(collections).toBe(2);
  });

  it('watches the full collections of a load: what the last one left, the load\'s value, and its error', async () => {
    const none: FullCollections = {};
    expect(await watchedLoad(async () => 'value', none)).toBe('value');
    const collections: FullCollections = {};
    await watchedLoad(async () => collectGarbage(), collections);
    expect(collections.liveAfterLast).toBeGreaterThan(0);
    await expect(watchedLoad(() => Promise.reject(new Error('refused')), {})).rejects.toThrow('refused');
  });

  it('frees what nothing holds, and leaves no gc function behind', async () => {
    const had = typeof (globalThis as { gc?: unknown }).gc;
    let held: object | undefined = { garbage: new Array(1000).fill('x') };
    const ref = new WeakRef(held);
    held = undefined;
    // A WeakRef's target is kept until the turn that made it ends.
    await nextTurn();
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(had);
    expect(runInNewContext('typeof gc')).toBe(had);
  });
});
