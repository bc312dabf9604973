// Group commit: many mutations, few writes. A commit resolves only after a write that started
// after the call has finished, so an acknowledged change is on disk; calls that arrive while a
// write is in flight share the next write, so a burst of requests costs two writes, not N.

export class GroupCommit<T> {
  private inFlight: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private latest: T | undefined;

  constructor(private readonly write: (data: T) => Promise<void>) {}

  /** Resolves once `data` (or newer data) is written; rejects if that write fails. */
  commit(data: T): Promise<void> {
    this.latest = data;
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
    const data = this.latest as T;
    const run = this.write(data).finally(() => {
      if (this.inFlight === run) this.inFlight = undefined;
    });
    this.inFlight = run;
    return run;
  }
}
