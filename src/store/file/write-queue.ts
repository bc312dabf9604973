// The one queue a LogFileStore's steps on disk take turns in (log-file-store.ts): its writes, a
// seed's replace and the compaction's setting aside of the log (log-compaction.ts) each start once
// the one before has settled, so that no append lands between the rotation and the swap of the
// changes noted, and the log's descriptor is never closed while an append runs (fd-append.ts).
// A write's step goes through `run` on the hot path: no async function, no promise but the two
// below, no closure but the caller's step and the catch's.
export class WriteQueue {
  private last: Promise<unknown> = Promise.resolve();

  /** Runs `step` once every step queued before it has settled, failed or not; its promise is the step's. */
  run<T>(step: () => Promise<T>): Promise<T> {
    const run = this.last.then(step);
    this.last = run.catch(() => undefined);
    return run;
  }

  /** Settles (never rejects) once every step queued so far has. */
  get settled(): Promise<unknown> {
    return this.last;
  }
}
