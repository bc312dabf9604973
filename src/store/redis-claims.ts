// What creates claim in Redis before they store a link (D19, D22), and give back when a later check
// refuses: a place under the account's limit (a conditional increment, with a token per place:
// redis-reservations.ts) and a slug (set-if-absent, then delete-if-equal). A claim whose call
// failed may have been made all the same (a reply lost or late), and a give-back may fail while
// Redis is gone: both are kept and given back once Redis answers (redis-give-backs.ts), which is
// safe because every give-back is idempotent.
import { randomBytes } from 'node:crypto';
import type { RedisConnection } from './redis-connection.js';
import { ABANDONED_MS } from './redis-generations.js';
import { GiveBacks } from './redis-give-backs.js';
import { SlotReservations, type Reservation } from './redis-reservations.js';
import type { TxnRunner } from './redis-runner.js';
import { pairs } from './redis-txn.js';

export class RedisClaims {
  private readonly reservations = new SlotReservations();
  private readonly giveBacks: GiveBacks;

  constructor(
    private readonly connection: RedisConnection,
    private readonly runner: TxnRunner,
    log: (line: string) => void,
  ) {
    this.giveBacks = new GiveBacks(() => connection.answering, log);
    connection.onBack(() => void this.giveBacks.retry());
  }

  /** A conditional increment of the account's links + reservations, recording the place's token. */
  reserve(accountId: string, limit: number): Promise<boolean> {
    if (this.giveBacks.size > 0) void this.giveBacks.retry();
    const token = randomBytes(8).toString('hex');
    let abandoned = false;
    const reserve = async (): Promise<boolean> => {
      const outcome = await this.runner.run((t, k) =>
        t.check('below?', k.slots, accountId, limit).write('HINCRBY', k.slots, accountId, 1).write('HSET', k.reservations, token, `${Date.now()} ${accountId}`),
      );
      if (outcome.status === 'ok' && !abandoned) this.reservations.add(accountId, { generation: outcome.generation, token });
      return outcome.status === 'ok';
    };
    return this.connection.bounded(reserve).catch((error: unknown) => {
      abandoned = true;
      this.giveBacks.later(() => this.releasePlace(accountId, { generation: this.runner.generation, token }));
      throw error;
    });
  }

  /** Settles even when Redis is unreachable: the place is then given back once it answers. */
  release(accountId: string): Promise<void> {
    const reservation = this.reservations.takeForRelease(accountId, this.runner.generation);
    if (!reservation) return Promise.resolve();
    return this.connection.bounded(() => this.giveBacks.run(() => this.releasePlace(accountId, reservation)));
  }

  /** A place of the current generation, for a link to be stored in it (undefined: the create began before a reset). */
  takePlace(accountId: string): Reservation | undefined {
    return this.reservations.take(accountId, this.runner.generation);
  }

  /** A place taken for a link that was not stored (or not known to be): the create gives it back. */
  returnPlace(accountId: string, reservation: Reservation): void {
    this.reservations.add(accountId, reservation);
  }

  /** Set-if-absent: the field holds the claim, then the stored link's id. */
  claimSlug(field: string, linkId: string): Promise<boolean> {
    const claim = async (): Promise<boolean> => (await this.runner.run((t, k) => t.check('lacks?', k.slugs, field).write('HSET', k.slugs, field, linkId))).status === 'ok';
    return this.connection.bounded(claim).catch((error: unknown) => {
      this.giveBacks.later(() => this.freeSlug(field, linkId));
      throw error;
    });
  }

  /** Settles even when Redis is unreachable, like release. */
  releaseSlug(field: string, linkId: string): Promise<void> {
    return this.connection.bounded(() => this.giveBacks.run(() => this.freeSlug(field, linkId)));
  }

  /**
   * Gives back the places that instances which stopped mid-create (a crash, a kill) left reserved:
   * a create holds one for milliseconds, so one held longer than ABANDONED_MS is abandoned.
   */
  async sweep(now: number): Promise<number> {
    const [held] = (await this.runner.run((t, k) => t.read('HGETALL', k.reservations))).replies;
    let swept = 0;
    for (const [token, value] of pairs(held)) {
      const [reservedAt, accountId] = value.split(' ') as [string, string];
      if (now - Number(reservedAt) < ABANDONED_MS || this.reservations.holds(token)) continue;
      await this.releasePlace(accountId, { generation: this.runner.generation, token });
      swept += 1;
    }
    return swept;
  }

  /** Delete-if-equal, and never the slug of a stored link (a create whose reply was lost gives its claims back). */
  private async freeSlug(field: string, linkId: string): Promise<void> {
    await this.runner.run((t, k) => t.check('lacks?', k.links, linkId).write('HDELEQ', k.slugs, field, linkId));
  }

  /** Removes the place's token and, only if it was there, the place from the count: idempotent. */
  private async releasePlace(accountId: string, reservation: Reservation): Promise<void> {
    // Refused when its generation was replaced: that count went with it.
    await this.runner.runAt(reservation.generation, (t, k) =>
      t.check('has?', k.reservations, reservation.token).write('HDEL', k.reservations, reservation.token).write('HINCRBY', k.slots, accountId, -1),
    );
  }
}
