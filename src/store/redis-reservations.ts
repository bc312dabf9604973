// The places under an account's link limit that this process's creates have reserved in Redis and
// not yet turned into links or given back, with the generation each was reserved in. A create
// spans several store calls, and a reset may switch generations between them: its link may only
// be stored against a place reserved in the generation it is stored in, or the new data would
// count one link more than it holds places for (a mix of old and new). The interface names no
// request, and within a generation one account's places are interchangeable, so it is enough to
// count them per account and generation.

export class SlotReservations {
  /** Account id → the generations of its reserved places, oldest first. */
  private readonly byAccount = new Map<string, string[]>();

  add(accountId: string, generation: string): void {
    const held = this.byAccount.get(accountId);
    if (held) held.push(generation);
    else this.byAccount.set(accountId, [generation]);
  }

  /** Takes one place reserved in `generation`; false when there is none (the create began before a reset). */
  take(accountId: string, generation: string): boolean {
    const held = this.byAccount.get(accountId);
    const index = held?.indexOf(generation) ?? -1;
    if (!held || index === -1) return false;
    held.splice(index, 1);
    if (held.length === 0) this.byAccount.delete(accountId);
    return true;
  }

  /**
   * Takes a place to give back: one reserved in a replaced generation first (giving it back costs
   * nothing, that data is gone), else one of `current`.
   */
  takeForRelease(accountId: string, current: string): string | undefined {
    const held = this.byAccount.get(accountId);
    if (!held) return undefined;
    const stale = held.findIndex((generation) => generation !== current);
    const [generation] = held.splice(stale === -1 ? 0 : stale, 1);
    if (held.length === 0) this.byAccount.delete(accountId);
    return generation;
  }
}
