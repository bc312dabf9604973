// A deadline for each of many concurrent Redis calls, without a timer each: under load a request
// makes several calls, and a setTimeout, a clearTimeout and a Promise.race per call were a
// measurable share of the CPU. One interval, running only while some call waits (and never
// keeping the process alive), checks them every TICK_MS, so a deadline fires at most TICK_MS late:
// the callers' bounds (1 s and 1.8 s, under D25's 2 s) leave room for that.

export const TICK_MS = 50;

interface Waiting {
  at: number;
  fail: () => void;
}

const waiting = new Set<Waiting>();
let ticker: NodeJS.Timeout | undefined;

/** `work`, or a rejection with `message()` once `ms` have passed (`work` itself runs on). */
export function within<T>(work: Promise<T>, ms: number, message: () => string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const entry: Waiting = { at: Date.now() + ms, fail: () => reject(new Error(message())) };
    waiting.add(entry);
    ticker ??= setInterval(expire, TICK_MS).unref();
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

function expire(): void {
  const now = Date.now();
  for (const entry of waiting) {
    if (entry.at > now) continue;
    waiting.delete(entry);
    entry.fail();
  }
  if (waiting.size > 0 || !ticker) return;
  clearInterval(ticker);
  ticker = undefined;
}
