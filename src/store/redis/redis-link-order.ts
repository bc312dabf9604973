// Each account's links on Redis in the order of its pages (src/core/link-order.ts): a sorted set
// per account (redis-keys.ts, `links-by-time:`), every score 0, so that members sort by their bytes
// and ZREVRANGEBYLEX reads a page newest first in O(log n + page). A member is the link's createdAt,
// each NUL in it written NUL 0x01, then NUL NUL, then its id: byte order of members is the order of
// (createdAt, id) (a shorter createdAt sorts first, as in JavaScript), and the id is what follows
// the first NUL NUL. (For text beyond ASCII, Redis compares UTF-8 bytes where JavaScript compares
// UTF-16 units; every createdAt and id the mock makes is ASCII.)
//
// A generation written before the index existed has none: `buildLinkOrder` adds every link, a
// batch per round trip, while the mock serves (pages read every link and sort them until it is
// done), each entry only if its link is still there, and marks the generation's meta when done.
import type { LinkPosition } from '../../core/link-order.js';
import type { LinkRecord } from '../../core/model.js';
import type { GenerationKeys } from './redis-keys.js';
import { decodeJson } from './redis-records.js';
import type { TxnRunner } from './redis-runner.js';
import type { Txn } from './redis-txn.js';

/** meta's field that says the generation's sorted sets hold every link. */
export const LINK_ORDER_FIELD = 'link-order';
/** Links added to the order per round trip while a generation written before it is given one. */
export const LINK_ORDER_BATCH = 500;

/** The sorted-set member of a link (or of a cursor's position). */
export const orderMember = (link: LinkPosition): string => `${link.createdAt.replaceAll('\0', '\0\x01')}\0\0${link.id}`;

/** The writes that put the link into its account's order. */
export function addToOrder(t: Txn, k: GenerationKeys, link: LinkRecord): Txn {
  return t.write('ZADD', k.linksByTime(link.accountId), 0, orderMember(link));
}

/** The reads of a page: whether the order is complete, then the records and click counts of at most `limit` links older than `after`. */
export function pageTxn(t: Txn, k: GenerationKeys, accountId: string, after: LinkPosition | undefined, limit: number): Txn {
  const max = after ? `(${orderMember(after)}` : '+';
  const order = k.linksByTime(accountId);
  return t.read('HGET', k.meta, LINK_ORDER_FIELD).pageVia(order, max, limit, k.links).pageVia(order, max, limit, k.clicks);
}

export type BuildEnd = 'built' | 'already' | 'replaced' | 'stopped';

/**
 * Gives `generation` its order, if it has none: HSCAN over the links, LINK_ORDER_BATCH at a time,
 * each added if still there (a delete meanwhile removed its entry or finds none; a create meanwhile
 * wrote its own). Ends early when the generation is replaced (its successor was written whole,
 * with its order) or `stopped()` says so (the store is closing). Any instance may run it at once:
 * adding an entry twice changes nothing.
 */
export async function buildLinkOrder(runner: TxnRunner, generation: string, stopped: () => boolean): Promise<BuildEnd> {
  const meta = await runner.runAt(generation, (t, k) => t.read('HGET', k.meta, LINK_ORDER_FIELD));
  if (meta.status === 'stale') return 'replaced';
  if (meta.status === 'ok' && meta.replies[0] === '1') return 'already';
  let cursor = '0';
  do {
    if (stopped()) return 'stopped';
    const from = cursor;
    const scan = await runner.runAt(generation, (t, k) => t.read('HSCAN', k.links, from, 'COUNT', String(LINK_ORDER_BATCH)));
    if (scan.status !== 'ok') return 'replaced';
    const [next, flat] = scan.replies[0] as [string, string[]];
    cursor = next;
    if (flat.length === 0) continue;
    const added = await runner.runAt(generation, (t, k) => {
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const link = decodeJson<LinkRecord>(flat[i + 1]);
        if (link) t.addIfPresent(k.linksByTime(link.accountId), orderMember(link), k.links, flat[i] as string);
      }
      return t;
    });
    if (added.status !== 'ok') return 'replaced';
  } while (cursor !== '0');
  const marked = await runner.runAt(generation, (t, k) => t.write('HSET', k.meta, LINK_ORDER_FIELD, '1'));
  return marked.status === 'ok' ? 'built' : 'replaced';
}
