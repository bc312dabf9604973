// Claims a refused create gives back (its place under the limit, its slug) while Redis cannot be
// reached, and claims whose outcome is unknown (a claim that timed out may still have been made).
// Failing them would leave the claim held in Redis for good: a slug no link has but no one can
// take, an account allowed one link fewer. So they are kept and run once Redis answers again
// (when the connection is back, and before the next reservation). Every give-back is idempotent
// (delete-if-equal, a token removed once), so one that finds nothing to give back is harmless.

/** Give-backs kept at most; past it the oldest is dropped, and said. */
const MAX_KEPT = 10_000;

export type GiveBack = () => Promise<void>;

export class GiveBacks {
  private kept: GiveBack[] = [];
  private retrying: Promise<void> | undefined;

  constructor(
    /** Whether Redis answers now: when it does not, a give-back is kept at once, so a refused request is not kept waiting. */
    private readonly answering: () => boolean,
    private readonly log: (line: string) => void,
  ) {}

  get size(): number {
    return this.kept.length;
  }

  /** Runs it; when Redis is unavailable, keeps it for later and resolves (the caller has nothing to undo). */
  async run(giveBack: GiveBack): Promise<void> {
    if (!this.answering()) return this.later(giveBack);
    try {
      await giveBack();
    } catch (error) {
      if (!/^store unavailable: /.test((error as Error).message)) throw error;
      this.later(giveBack);
    }
  }

  /** Keeps it to run at the next retry. */
  later(giveBack: GiveBack): void {
    this.kept.push(giveBack);
    if (this.kept.length <= MAX_KEPT) return;
    this.kept.shift();
    this.log(`more than ${MAX_KEPT} claims wait to be given back to Redis; the oldest is dropped (a slug or a place under a limit stays held until the next reset)`);
  }

  /** Runs every kept give-back once more, in order; those that fail again stay kept. One retry at a time. */
  retry(): Promise<void> {
    this.retrying ??= this.retryAll().finally(() => {
      this.retrying = undefined;
    });
    return this.retrying;
  }

  private async retryAll(): Promise<void> {
    const due = this.kept;
    this.kept = [];
    for (const [i, giveBack] of due.entries()) {
      // Redis stopped answering again: keep the rest as they are.
      if (!this.answering()) return void this.kept.unshift(...due.slice(i));
      await this.run(giveBack).catch((error: unknown) => this.log(`a claim could not be given back: ${(error as Error).message}`));
    }
  }
}
