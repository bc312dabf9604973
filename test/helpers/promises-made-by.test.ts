// The promise count the store's cost tests rely on counts the work's promises, whatever else the
// process does while the work awaits (CI, stop 54: Vitest's own reports tripled a count).
import { describe, expect, it } from 'vitest';
import { promisesMadeBy } from './promises-made-by.js';

/** Makes `count` promises in another context, one a check phase, while the work waits. */
function busyElsewhere(count: number): Promise<void> {
  return new Promise((done) => {
    let left = count;
    const step = (): void => {
      if (left-- === 0) return done();
      void Promise.resolve().then(() => setImmediate(step));
    };
    setImmediate(step);
  });
}

describe('promisesMadeBy', () => {
  it('counts a chain the work makes, and none another context makes meanwhile', async () => {
    const elsewhere = busyElsewhere(50);
    const waitTurns = async (): Promise<string> => {
      for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      return 'done';
    };
    const { promises, result } = await promisesMadeBy(waitTurns);
    await elsewhere;
    // The async function's own promise, each turn's promise and its await's, and the await of the
    // work's promise: the caller's await is the work's too, as the store tests count it.
    expect(result).toBe('done');
    expect(promises).toBe(22);
  });

  it('counts a chain the work hangs on a promise made before it', async () => {
    const earlier = Promise.resolve(1);
    const { promises } = await promisesMadeBy(() => earlier.then((n) => n + 1).then((n) => n + 1));
    // Two thens, and the await of the second.
    expect(promises).toBe(3);
  });
});
