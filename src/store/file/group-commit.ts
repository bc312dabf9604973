// Group commit: many changes, few writes. A commit resolves only after a write that started
// after the call has finished, so an acknowledged change is on disk; changes that arrive while a
// write is in flight are queued and share the next write, so a burst of N requests costs two
// writes, not N.
//
// With `gather` (the mock's: endOfPhase), a commit made while no write is in flight waits for it
// before it writes, and every commit made meanwhile shares that write: a burst of N requests read
// in one turn of the event loop costs one write. Their answers then leave together too, and that
// is what it buys most: on this VM an answer written to a client that sleeps wakes it, at ~15 µs
// of the sender's CPU more than an answer written right after another (bench/create-cost.md, "by
// thread"). An answer sent alone per request made the memory store and relaxed durability slower
// than durable writes.

/**
 * Resolves in this turn's check phase of the event loop (setImmediate), after the I/O callbacks of
 * the turn: the requests read in it have made their changes by then. One promise a turn, shared.
 */
export function endOfPhase(): Promise<void> {
  return (phaseEnd ??= new Promise((resolve) => setImmediate(endPhase, resolve)));
}

let phaseEnd: Promise<void> | undefined;

function endPhase(resolve: () => void): void {
  phaseEnd = undefined;
  resolve();
}

export class GroupCommit<T> {
  private inFlight: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private queued: T[] = [];

  /** `gather`: what a commit made with no write in flight waits for before it writes (none: it writes at once). */
  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly gather?: () => Promise<void>,
  ) {}

  /** Resolves once the items are written; rejects if that write fails. */
  commit(items: readonly T[]): Promise<void> {
    this.queued.push(...items);
    if (this.next) return this.next;
    const before = this.inFlight ?? this.gather?.();
    if (!before) return this.start();
    this.next = before.then(
      () => this.start(),
      () => this.start(),
    );
    return this.next;
  }

  /** Resolves when every commit asked for so far has been written (or has failed). */
  async flush(): Promise<void> {
    while (this.inFlight || this.next) await Promise.allSettled([this.inFlight, this.next]);
  }

  private start(): Promise<void> {
    this.next = undefined;
    const items = this.queued;
    this.queued = [];
    // then(done, failed), not finally(done): finally makes two more promises and closures a commit.
    const done = (): void => {
      if (this.inFlight === run) this.inFlight = undefined;
    };
    const run: Promise<void> = this.write(items).then(done, (error: unknown) => {
      done();
      throw error;
    });
    this.inFlight = run;
    return run;
  }
}
