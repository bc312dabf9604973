// A start that loaded a large store collects its garbage before listening (src/process/collect-garbage.ts,
// issue 40: at 1,000,000 links ~385 MiB of it kept the process at 3.1x its db file's size).
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectAfterLoad, collectGarbage, COLLECT_BEFORE_LISTENING_LINKS } from '../../src/process/collect-garbage.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the collection before listening', () => {
  it('runs from COLLECT_BEFORE_LISTENING_LINKS loaded links, not below', () => {
    let collections = 0;
    expect(collectAfterLoad(COLLECT_BEFORE_LISTENING_LINKS - 1, () => (collections += 1))).toBe(false);
    expect(collections).toBe(0);
    expect(collectAfterLoad(COLLECT_BEFORE_LISTENING_LINKS, () => (collections += 1))).toBe(true);
    expect(collections).toBe(1);
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
