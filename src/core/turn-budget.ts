// How long a slice of a replace's work (MockState.built, sliced-sort.ts) runs before it lets the
// event loop go round, by the wall clock. Counted in links alone, a slice of ~5 ms of our work grew
// to 50-118 ms while V8 marked a heap of 1,000,000 links (issue 40: its incremental marking's steps
// run on this thread, in our slices, triggered by what they allocate: bench/replace-stalls.md,
// 30 Nov). Timed, a slice ends at the first check after TURN_MS, whatever ran in it.

/** The wall-clock time a slice runs before it pauses: as a compaction's write turn (chunked-json.ts WRITE_TURN_MS). */
export const TURN_MS = 4;
/** Units of work between two reads of the clock. */
const CLOCK_EVERY = 64;

export class TurnBudget {
  private units = 0;
  private started: number;

  /** `now`: the clock (tests give one of their own). */
  constructor(
    private readonly pause: () => Promise<void>,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  /** After a unit of work: the pause when the slice's time is spent, else undefined (no promise a unit). */
  tick(): Promise<void> | undefined {
    this.units += 1;
    return this.units % CLOCK_EVERY === 0 && this.spent() ? this.next() : undefined;
  }

  /** Whether the slice has run TURN_MS. */
  spent(): boolean {
    return this.now() - this.started >= TURN_MS;
  }

  /** Pauses now; the next slice starts after it. */
  async next(): Promise<void> {
    await this.pause();
    this.started = this.now();
  }
}
