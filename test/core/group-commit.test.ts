// GroupCommit with a hand-driven fake write: each write is a promise the test settles itself, so
// every interleaving is exact and nothing waits on a clock.
import { describe, expect, it } from 'vitest';
import { endOfPhase, GroupCommit } from '../../src/store/file/group-commit.js';

interface PendingWrite { data: string; resolve: () => void; reject: (error: Error) => void }

function setup() {
  const writes: PendingWrite[] = [];
  const commit = new GroupCommit<string>(
    (items) => new Promise<void>((resolve, reject) => { writes.push({ data: items.join(','), resolve, reject }); }),
  );
  const write = (index: number): PendingWrite => {
    const pending = writes[index];
    if (!pending) throw new Error(`write ${index} has not started (${writes.length} started)`);
    return pending;
  };
  return { commit, writes, write };
}

/** Tracks a promise's outcome without ever leaving a rejection unhandled. */
function track(promise: Promise<void>) {
  const state: { settled: 'pending' | 'resolved' | 'rejected'; error?: unknown } = { settled: 'pending' };
  promise.then(() => { state.settled = 'resolved'; }, (error: unknown) => { state.settled = 'rejected'; state.error = error; });
  return state;
}

/** Lets every already-queued promise callback run (microtasks only, no timers). */
async function drain(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}

describe('GroupCommit', () => {
  it('the first commit writes at once, with its items', () => {
    const { commit, writes } = setup();
    void commit.commit(['a']);
    expect(writes.map((w) => w.data)).toEqual(['a']);
  });

  it('commits during an in-flight write share ONE next write, which carries all their items in order', async () => {
    const { commit, writes, write } = setup();
    const a = track(commit.commit(['a']));
    const during = ['b', 'c', 'd'].map((data) => commit.commit([data]));
    expect(during[1]).toBe(during[0]);
    expect(during[2]).toBe(during[0]);
    const waiters = during.map(track);
    await drain();
    expect(writes).toHaveLength(1);
    write(0).resolve();
    await drain();
    expect(a.settled).toBe('resolved');
    expect(writes.map((w) => w.data)).toEqual(['a', 'b,c,d']);
    expect(waiters.map((w) => w.settled)).toEqual(['pending', 'pending', 'pending']);
    write(1).resolve();
    await drain();
    expect(waiters.map((w) => w.settled)).toEqual(['resolved', 'resolved', 'resolved']);
    expect(writes).toHaveLength(2);
  });

  it('a burst of commits costs two writes', async () => {
    const { commit, writes, write } = setup();
    const all = Array.from({ length: 50 }, (_, i) => track(commit.commit([`v${i}`])));
    write(0).resolve();
    await drain();
    write(1).resolve();
    await drain();
    expect(writes.map((w) => w.data)).toEqual(['v0', Array.from({ length: 49 }, (_, i) => `v${i + 1}`).join(',')]);
    expect(all.every((s) => s.settled === 'resolved')).toBe(true);
  });

  it('a commit resolves only after a write that started after the call', async () => {
    const { commit, writes, write } = setup();
    track(commit.commit(['a']));
    const b = track(commit.commit(['b']));
    write(0).resolve(); // started before 'b' was committed: not enough for 'b'
    await drain();
    expect(b.settled).toBe('pending');
    const c = track(commit.commit(['c'])); // arrives while write 1 ('b') is in flight
    write(1).resolve();
    await drain();
    expect(b.settled).toBe('resolved');
    expect(c.settled).toBe('pending');
    expect(writes.map((w) => w.data)).toEqual(['a', 'b', 'c']);
    write(2).resolve();
    await drain();
    expect(c.settled).toBe('resolved');
  });

  it('a commit made once idle writes at once again', async () => {
    const { commit, writes, write } = setup();
    track(commit.commit(['a']));
    write(0).resolve();
    await drain();
    track(commit.commit(['b']));
    expect(writes.map((w) => w.data)).toEqual(['a', 'b']);
  });

  it.each([
    { name: 'the first write fails', fail: 0 },
    { name: 'the shared next write fails', fail: 1 },
  ])('$name: its waiters reject, the others resolve, and the next commit still writes', async ({ fail }) => {
    const { commit, writes, write } = setup();
    const waiters = [track(commit.commit(['a'])), track(commit.commit(['b'])), track(commit.commit(['c']))];
    const boom = new Error('disk full');
    for (const index of [0, 1]) {
      if (index === fail) write(index).reject(boom);
      else write(index).resolve();
      await drain();
    }
    const expected = fail === 0 ? ['rejected', 'resolved', 'resolved'] : ['resolved', 'rejected', 'rejected'];
    expect(waiters.map((w) => w.settled)).toEqual(expected);
    for (const w of waiters) if (w.settled === 'rejected') expect(w.error).toBe(boom);
    const next = track(commit.commit(['d']));
    expect(writes.map((w) => w.data)).toEqual(['a', 'b,c', 'd']);
    write(2).resolve();
    await drain();
    expect(next.settled).toBe('resolved');
  });

  it('a failure of the in-flight write still starts the queued one', async () => {
    const { commit, writes, write } = setup();
    const a = track(commit.commit(['a']));
    const b = track(commit.commit(['b']));
    write(0).reject(new Error('io'));
    await drain();
    expect(a.settled).toBe('rejected');
    expect(writes.map((w) => w.data)).toEqual(['a', 'b']);
    write(1).resolve();
    await drain();
    expect(b.settled).toBe('resolved');
  });

  describe('with gather (the mock\'s: the end of the event loop\'s I/O phase)', () => {
    function gathered() {
      const writes: PendingWrite[] = [];
      let open: (() => void)[] = [];
      const commit = new GroupCommit<string>(
        (items) => new Promise<void>((resolve, reject) => { writes.push({ data: items.join(','), resolve, reject }); }),
        () => new Promise<void>((resolve) => { open.push(resolve); }),
      );
      const endPhase = (): void => {
        const ending = open;
        open = [];
        for (const resolve of ending) resolve();
      };
      return { commit, writes, endPhase };
    }

    it('a commit with no write in flight waits for the phase to end, and every commit made meanwhile shares that one write', async () => {
      const { commit, writes, endPhase } = gathered();
      const all = ['a', 'b', 'c'].map((data) => track(commit.commit([data])));
      await drain();
      expect(writes).toHaveLength(0);
      endPhase();
      await drain();
      expect(writes.map((w) => w.data)).toEqual(['a,b,c']);
      expect(all.map((w) => w.settled)).toEqual(['pending', 'pending', 'pending']);
      writes[0]?.resolve();
      await drain();
      expect(all.map((w) => w.settled)).toEqual(['resolved', 'resolved', 'resolved']);
    });

    it('a commit made while a write is in flight waits for that write, not for the phase: the rule of a write that started after the call holds', async () => {
      const { commit, writes, endPhase } = gathered();
      track(commit.commit(['a']));
      endPhase();
      await drain();
      const b = track(commit.commit(['b']));
      writes[0]?.resolve();
      await drain();
      expect(writes.map((w) => w.data)).toEqual(['a', 'b']);
      expect(b.settled).toBe('pending');
      writes[1]?.resolve();
      await drain();
      expect(b.settled).toBe('resolved');
    });

    it('flush() waits for a commit still gathering', async () => {
      const { commit, writes, endPhase } = gathered();
      track(commit.commit(['a']));
      const flushed = track(commit.flush());
      await drain();
      expect(flushed.settled).toBe('pending');
      endPhase();
      await drain();
      writes[0]?.resolve();
      await drain();
      expect(flushed.settled).toBe('resolved');
    });
  });

  it('endOfPhase: one promise a turn, settled in its check phase (after the turn\'s I/O callbacks), then a new one', async () => {
    const first = endOfPhase();
    expect(endOfPhase()).toBe(first);
    const order: string[] = [];
    const settled = first.then(() => void order.push('phase'));
    setImmediate(() => order.push('immediate queued after'));
    await settled;
    expect(order).toEqual(['phase']);
    expect(endOfPhase()).not.toBe(first);
    await endOfPhase();
  });

  describe('flush()', () => {
    it('resolves at once when nothing is pending', async () => {
      const { commit } = setup();
      const flushed = track(commit.flush());
      await drain();
      expect(flushed.settled).toBe('resolved');
    });

    it('waits for the in-flight write and the queued one', async () => {
      const { commit, write } = setup();
      track(commit.commit(['a']));
      track(commit.commit(['b']));
      const flushed = track(commit.flush());
      await drain();
      expect(flushed.settled).toBe('pending');
      write(0).resolve();
      await drain();
      expect(flushed.settled).toBe('pending');
      write(1).resolve();
      await drain();
      expect(flushed.settled).toBe('resolved');
    });

    it('resolves (does not reject) when a write fails', async () => {
      const { commit, write } = setup();
      const a = track(commit.commit(['a']));
      const flushed = track(commit.flush());
      write(0).reject(new Error('io'));
      await drain();
      expect(a.settled).toBe('rejected');
      expect(flushed.settled).toBe('resolved');
    });

    it('also waits for commits made while it waits', async () => {
      const { commit, write } = setup();
      track(commit.commit(['a']));
      const flushed = track(commit.flush());
      await drain();
      track(commit.commit(['b'])); // while flush() waits on write 0
      write(0).resolve();
      await drain();
      expect(flushed.settled).toBe('pending');
      write(1).resolve();
      await drain();
      expect(flushed.settled).toBe('resolved');
    });
  });
});
