// The deadline of a Redis call (src/store/redis/deadline.ts) counts only time in which this process
// could have read the reply: after the process itself stood still (a long GC, no CPU on a busy
// machine), the replies that came meanwhile are read before any call is failed. That stall made a
// 1,000,000-link seed fail with "did not answer within 1000 ms" while Redis had answered (issue 40).
// A Redis that stopped answering still fails the call. Fake clock and interval: no real waiting.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineError, inOrder, TICK_MS, within } from '../../src/store/redis/deadline.js';

const BOUND_MS = 1_000;

function pending(): { work: Promise<string>; answer: (value: string) => void } {
  let answer: (value: string) => void = () => undefined;
  const work = new Promise<string>((resolve) => {
    answer = resolve;
  });
  return { work, answer };
}

describe('a Redis call deadline', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    // Ticks on an empty set stop the module's interval, so no fake interval outlives this file.
    vi.advanceTimersByTime(4 * TICK_MS);
    vi.useRealTimers();
  });

  it('is not failed by a stall of the process itself when the reply came during it', async () => {
    const { work, answer } = pending();
    const call = within(work, BOUND_MS, () => 'did not answer');
    vi.advanceTimersByTime(BOUND_MS / 2);
    // The process stood still 1.5 s (no tick ran); the reply came meanwhile and is read after the first tick.
    vi.setSystemTime(Date.now() + 1_500);
    vi.advanceTimersByTime(TICK_MS);
    answer('answered');
    await expect(call).resolves.toBe('answered');
  });

  it('still fails a call Redis never answers, within two ticks of its deadline', async () => {
    const { work } = pending();
    const call = within(work, BOUND_MS, () => 'did not answer');
    const outcome = call.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    vi.advanceTimersByTime(BOUND_MS + 2 * TICK_MS);
    await expect(outcome).resolves.toBe('did not answer');
  });

  it('still fails a call Redis never answers when the process stood still past its deadline', async () => {
    const { work } = pending();
    const call = within(work, BOUND_MS, () => 'did not answer');
    const outcome = call.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    vi.setSystemTime(Date.now() + 5_000);
    vi.advanceTimersByTime(2 * TICK_MS);
    await expect(outcome).resolves.toBe('did not answer');
  });
});

describe('replies in order (inOrder)', () => {
  const LATE = 'store unavailable: Redis did not answer within 1000 ms';

  it('takes a failed reply whose message reads like its timeout for that failure only: the next reply is still read', async () => {
    // A reply may fail with any text, even the deadline's own (a reply that timed out on a bound of its own).
    const outcomes = await inOrder([Promise.reject(new Error(LATE)), Promise.resolve('answered')], BOUND_MS, () => LATE);
    expect(outcomes).toEqual([
      { status: 'rejected', reason: new Error(LATE) },
      { status: 'fulfilled', value: 'answered' },
    ]);
  });

  it('once its own deadline passed, fails the replies after it at once, with the same DeadlineError', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const { work } = pending();
      const settled = inOrder([work, Promise.resolve('answered later')], BOUND_MS, () => LATE);
      await vi.advanceTimersByTimeAsync(BOUND_MS + 2 * TICK_MS);
      const outcomes = await settled;
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
      const [first, second] = outcomes as PromiseRejectedResult[];
      expect(first!.reason).toBeInstanceOf(DeadlineError);
      expect(first!.reason.message).toBe(LATE);
      expect(second!.reason).toBe(first!.reason);
    } finally {
      vi.advanceTimersByTime(4 * TICK_MS);
      vi.useRealTimers();
    }
  });
});
