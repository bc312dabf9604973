// What creates claim in Redis before they store a link (D19, D22), and give back when a later check
// refuses: a place under the account's limit (a conditional increment, with a token per place:
// redis-reservations.ts) and a slug (set-if-absent, then delete-if-equal). A claim whose call
// failed may have been made all the same (a reply lost or late), and a give-back may fail while
// Redis is gone: both are kept and given back once Redis answers (redis-give-backs.ts), which is
// safe because every give-back is idempotent.
// A claim whose create died with its process (a kill -9 between the claim and the link) is never
// given back by it: each claim names when it was made and by which connection, and is abandoned
// once that connection is gone (a killed process's socket closes with it) or it is older than
// `abandonedAfterMs`, far above a create's deadlines. Another instance then takes it over
// atomically: a place when its account is refused at the limit, a slug when it is claimed again,
// both at open. Taking over a claim whose create is in fact alive is safe: its insertLink finds
// its token or slug gone and is refused (a 500), so no limit is exceeded and no slug shared.
import { randomBytes } from 'node:crypto';
import type { RedisConnection } from './redis-connection.js';
import { GiveBacks } from './redis-give-backs.js';
import { SlotReservations, type Reservation } from './redis-reservations.js';
import type { TxnRunner } from './redis-runner.js';
import { pairs } from './redis-txn.js';

/** A claim older than this is abandoned, whoever made it: well above a create's few deadlines of under 2 s. */
export const DEFAULT_ABANDONED_CLAIM_MS = 30_000;

/** When a claim was made, and the connection that made it ('' when unknown). */
interface Made {
  at: number;
  clientId: string;
}

const made = (connection: RedisConnection): string => `${Date.now()} ${connection.clientId}`;

export class RedisClaims {
  private readonly reservations = new SlotReservations();
  private readonly giveBacks: GiveBacks;
  private readonly sweeping = new Map<string, Promise<number>>();

  constructor(
    private readonly connection: RedisConnection,
    private readonly runner: TxnRunner,
    log: (line: string) => void,
    private readonly abandonedAfterMs = DEFAULT_ABANDONED_CLAIM_MS,
  ) {
    this.giveBacks = new GiveBacks(() => connection.answering, log);
    connection.onBack(() => void this.giveBacks.retry());
  }

  /**
   * A conditional increment of the account's links + reservations, recording the place's token.
   * Refused at the limit, it first gives back the account's places abandoned by others, then tries once more.
   */
  reserve(accountId: string, limit: number): Promise<boolean> {
    if (this.giveBacks.size > 0) void this.giveBacks.retry();
    const tokens: string[] = [];
    let abandoned = false;
    const once = async (): Promise<boolean> => {
      const token = randomBytes(8).toString('hex');
      tokens.push(token);
      const outcome = await this.runner.run((t, k) =>
        t.check('below?', k.slots, accountId, limit).write('HINCRBY', k.slots, accountId, 1).write('HSET', k.reservations, token, `${made(this.connection)} ${accountId}`),
      );
      if (outcome.status === 'ok' && !abandoned) this.reservations.add(accountId, { generation: outcome.generation, token });
      return outcome.status === 'ok';
    };
    const reserve = async (): Promise<boolean> => (await once()) || ((await this.sweepFor(accountId)) > 0 && (await once()));
    return this.connection.bounded(reserve).catch((error: unknown) => {
      abandoned = true;
      for (const token of tokens) this.giveBacks.later(() => this.releasePlace(accountId, { generation: this.runner.generation, token }));
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

  /** Set-if-absent, or a take-over of an abandoned claim: the field holds the claim, then the stored link's id. */
  claimSlug(field: string, linkId: string): Promise<boolean> {
    const claim = async (): Promise<boolean> => {
      const outcome = await this.runner.run((t, k) =>
        t
          .check('lacks?', k.slugs, field)
          .write('HSET', k.slugs, field, linkId)
          .write('HSET', k.slugClaims, field, made(this.connection))
          .otherwise('HGET', k.slugs, field)
          .otherwise('HGET', k.slugClaims, field),
      );
      if (outcome.status === 'ok') return true;
      const [holder, claimed] = outcome.replies as [string | null, string | null];
      return holder !== null && claimed !== null && (await this.takeOverSlug(field, holder, claimed, linkId));
    };
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
   * One sweep of the account's places at a time in this process: every create refused meanwhile
   * waits for it and, if it found places abandoned, tries once more (as many as were refused, so
   * that every place given back can be used at once, whichever sweep gave it back).
   */
  private sweepFor(accountId: string): Promise<number> {
    let sweeping = this.sweeping.get(accountId);
    if (!sweeping) {
      sweeping = this.sweep(Date.now(), accountId).finally(() => this.sweeping.delete(accountId));
      this.sweeping.set(accountId, sweeping);
    }
    return sweeping;
  }

  /**
   * Gives back the places abandoned by instances that stopped mid-create (a crash, a kill), of
   * `accountId` only when given, and frees the slugs they claimed (not for one account only).
   * The places found abandoned: given back by this sweep, or by another one at the same time.
   */
  async sweep(now: number, accountId?: string): Promise<number> {
    const everything = accountId === undefined;
    const [held, slugClaims] = await this.runner.read((t, k) => (everything ? t.read('HGETALL', k.reservations).read('HGETALL', k.slugClaims) : t.read('HGETALL', k.reservations)));
    const places = [...pairs(held)].flatMap(([token, value]) => {
      const place = parsePlace(value);
      return (everything || place.accountId === accountId) && !this.reservations.holds(token) ? [{ token, ...place }] : [];
    });
    const slugs = everything ? [...pairs(slugClaims)] : [];
    const dead = await this.abandoned([...places, ...slugs.map(([, value]) => parseMade(value))], now);
    await Promise.all(places.map((place, i) => dead[i] && this.releasePlace(place.accountId, { generation: this.runner.generation, token: place.token })));
    await Promise.all(slugs.map(([field, value], i) => dead[places.length + i] && this.freeAbandonedSlug(field, value)));
    return dead.slice(0, places.length).filter(Boolean).length;
  }

  /** Which of these claims are abandoned: made by a connection Redis no longer has, or too long ago. Never one of this connection. */
  private async abandoned(claims: readonly Made[], now: number): Promise<boolean[]> {
    const others = claims.map((claim) => claim.clientId === '' || claim.clientId !== this.connection.clientId);
    const young = claims.filter((claim, i) => others[i] && now - claim.at < this.abandonedAfterMs);
    const connected = young.length === 0 ? new Set<string>() : await this.connection.connected(young.map((claim) => claim.clientId));
    return claims.map((claim, i) => Boolean(others[i]) && (now - claim.at >= this.abandonedAfterMs || (connected !== undefined && claim.clientId !== '' && !connected.has(claim.clientId))));
  }

  /** Compare-and-set: only the very claim that was found abandoned, and only while it has no link. */
  private async takeOverSlug(field: string, holder: string, claimed: string, linkId: string): Promise<boolean> {
    const [dead] = await this.abandoned([parseMade(claimed)], Date.now());
    if (!dead) return false;
    const outcome = await this.runner.run((t, k) =>
      t
        .check('equals?', k.slugs, field, holder)
        .check('equals?', k.slugClaims, field, claimed)
        .check('lacks?', k.links, holder)
        .write('HSET', k.slugs, field, linkId)
        .write('HSET', k.slugClaims, field, made(this.connection)),
    );
    return outcome.status === 'ok';
  }

  /** The claim found abandoned, if it is still that claim and has no link. */
  private async freeAbandonedSlug(field: string, claimed: string): Promise<void> {
    const [holder] = (await this.runner.read((t, k) => t.read('HGET', k.slugs, field))) as [string | null];
    if (holder === null) return;
    await this.runner.run((t, k) =>
      t.check('equals?', k.slugClaims, field, claimed).check('equals?', k.slugs, field, holder).check('lacks?', k.links, holder).write('HDEL', k.slugs, field).write('HDEL', k.slugClaims, field),
    );
  }

  /** Delete-if-equal, and never the slug of a stored link (a create whose reply was lost gives its claims back). */
  private async freeSlug(field: string, linkId: string): Promise<void> {
    await this.runner.run((t, k) => t.check('lacks?', k.links, linkId).check('equals?', k.slugs, field, linkId).write('HDEL', k.slugs, field).write('HDEL', k.slugClaims, field));
  }

  /** Removes the place's token and, only if it was there, the place from the count: idempotent. */
  private async releasePlace(accountId: string, reservation: Reservation): Promise<void> {
    // Refused when its generation was replaced: that count went with it.
    await this.runner.runAt(reservation.generation, (t, k) =>
      t.check('has?', k.reservations, reservation.token).write('HDEL', k.reservations, reservation.token).write('HINCRBY', k.slots, accountId, -1),
    );
  }
}

/** A reservation's "<atMs> <clientId> <accountId>", or "<atMs> <accountId>" as an older version wrote it. */
function parsePlace(value: string): Made & { accountId: string } {
  const parts = value.split(' ');
  const accountId = parts.at(-1) as string;
  return { at: Number(parts[0]), clientId: parts.length > 2 ? (parts[1] as string) : '', accountId };
}

/** A slug claim's "<atMs> <clientId>". */
function parseMade(value: string): Made {
  const [at, clientId = ''] = value.split(' ');
  return { at: Number(at), clientId };
}
