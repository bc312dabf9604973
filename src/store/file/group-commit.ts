// Group commit: many changes, few writes. A commit resolves only after a write that started
// after the call has finished, so an acknowledged change is on disk; changes that arrive while a
// write is in flight are queued and share the next write, so a burst of N requests costs two
// writes, not N.

export class GroupCommit<T> {
  private inFlight: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private queued: T[] = [];

  constructor(private readonly write: (items: T[]) => Promise<void>) {}

  /** Resolves once the items are written; rejects if that write fails. */
  commit(items: readonly T[]): Promise<void> {
    this.queued.push(...items);
    if (this.next) return this.next;
    if (!this.inFlight) return this.start();
    this.next = this.inFlight.then(
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
