// The places under an account's link limit that this process's creates hold in Redis, each a
// token in the `reservations` hash of the generation it was reserved in (redis-keys.ts). The
// interface names no request, and one account's places are interchangeable within a generation,
// so a create that stores its link, or gives its place back, takes any of its account's tokens:
// one of the current generation to store a link (a place reserved before a reset must not count
// in the new data), one of a replaced generation first to give back (that costs nothing).
// Tokens make giving back idempotent: it removes the token and decrements only if the token was
// still there, so a give-back retried after a lost reply, or after the link was stored, is harmless.

export interface Reservation {
  generation: string;
  token: string;
}

export class SlotReservations {
  /** Account id → its places held, oldest first. */
  private readonly byAccount = new Map<string, Reservation[]>();

  add(accountId: string, reservation: Reservation): void {
    const held = this.byAccount.get(accountId);
    if (held) held.push(reservation);
    else this.byAccount.set(accountId, [reservation]);
  }

  /** A place reserved in `generation`, taken; undefined when there is none (the create began before a reset). */
  take(accountId: string, generation: string): Reservation | undefined {
    return this.remove(accountId, (held) => held.findIndex((reservation) => reservation.generation === generation));
  }

  /** A place to give back: one of a replaced generation first, else the oldest. */
  takeForRelease(accountId: string, current: string): Reservation | undefined {
    return this.remove(accountId, (held) => Math.max(0, held.findIndex((reservation) => reservation.generation !== current)));
  }

  /** Whether this process holds the place of that token (a create under way, not abandoned). */
  holds(token: string): boolean {
    for (const held of this.byAccount.values()) if (held.some((reservation) => reservation.token === token)) return true;
    return false;
  }

  private remove(accountId: string, pick: (held: Reservation[]) => number): Reservation | undefined {
    const held = this.byAccount.get(accountId);
    if (!held) return undefined;
    const index = pick(held);
    if (index === -1) return undefined;
    const [reservation] = held.splice(index, 1);
    if (held.length === 0) this.byAccount.delete(accountId);
    return reservation;
  }
}
