// A deadline for each of many concurrent Redis calls, without a timer each: under load a request
// makes several calls, and a setTimeout, a clearTimeout and a Promise.race per call were a
// measurable share of the CPU. One interval, running only while some call waits (and never
// keeping the process alive), checks them every TICK_MS, so a deadline fires at most two ticks late:
// the callers' bounds (1 s and 1.8 s, under D25's 2 s) leave room for that.
// A deadline is only charged time in which this process could have read the reply: a tick fails
// only the calls whose deadline had passed at the tick before it, since between two ticks the loop
// has read its sockets at least once. When the process itself stood still (a long GC, or no CPU on
// a busy machine: 1.2 s between two ticks while a 1,000,000-link seed was written), the replies that
// came meanwhile are read before any call is failed; a Redis that stopped answering still fails it
// within two ticks of its deadline (issue 40).

export const TICK_MS = 50;

interface Waiting {
  at: number;
  fail: () => void;
}

const waiting = new Set<Waiting>();
let ticker: NodeJS.Timeout | undefined;
/** When the ticker last ran (or started): the latest moment by which every reply due was surely read. */
let previousTick = 0;

/** A deadline that passed: its own class, so that a caller tells it from a failure with the same text. */
export class DeadlineError extends Error {
  override name = 'DeadlineError';
}

/** `work`, or a DeadlineError with `message()` once `ms` have passed (`work` itself runs on). */
export function within<T>(work: Promise<T>, ms: number, message: () => string): Promise<T> {
  return expiring(work, ms, () => new DeadlineError(message()));
}

/** `work`, or a rejection with `late()` once `ms` have passed. */
function expiring<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const entry: Waiting = { at: Date.now() + ms, fail: () => reject(late()) };
    waiting.add(entry);
    if (!ticker) {
      ticker = setInterval(expire, TICK_MS).unref();
      previousTick = Date.now();
    }
    work.then(
      (value) => {
        waiting.delete(entry);
        resolve(value);
      },
      (error: unknown) => {
        waiting.delete(entry);
        reject(error);
      },
    );
  });
}

/**
 * The outcomes of replies that come in order (commands pipelined on one connection), each given
 * `ms` from the one ahead of it, not from when it was sent: the last of several waits for the
 * others' work too. Once one timed out the rest fail with it (a DeadlineError) at once.
 */
export async function inOrder(replies: ReadonlyArray<Promise<unknown>>, ms: number, message: () => string): Promise<Array<PromiseSettledResult<unknown>>> {
  for (const reply of replies) reply.catch(() => undefined);
  const outcomes: Array<PromiseSettledResult<unknown>> = [];
  let late: PromiseRejectedResult | undefined;
  for (const reply of replies) {
    if (late) {
      outcomes.push(late);
      continue;
    }
    // Its own deadline is told by identity: a reply may fail with any error, even a DeadlineError of its own bound.
    let own: DeadlineError | undefined;
    try {
      outcomes.push({ status: 'fulfilled', value: await expiring(reply, ms, () => (own = new DeadlineError(message()))) });
    } catch (error) {
      const failed: PromiseRejectedResult = { status: 'rejected', reason: error };
      if (error === own) late = failed;
      outcomes.push(failed);
    }
  }
  return outcomes;
}

function expire(): void {
  const readBy = previousTick;
  previousTick = Date.now();
  for (const entry of waiting) {
    if (entry.at > readBy) continue;
    waiting.delete(entry);
    entry.fail();
  }
  if (waiting.size > 0 || !ticker) return;
  clearInterval(ticker);
  ticker = undefined;
}
