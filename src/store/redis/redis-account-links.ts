// The links of one account on Redis (redis-link-reads.ts: linksOf, linkPageOf): all of them, their
// ids first and then their records in batches, every read in the generation of the ids; or a page,
// one read from the account's page order (redis-link-order.ts).
import type { LinkRecord } from '../../core/model.js';
import type { PageRead } from '../../core/link-store.js';
import { olderFirst } from '../../core/link-order.js';
import type { RedisConnection } from './redis-connection.js';
import { LINKS_PER_READ, linksFrom, readLinks } from './redis-link-txns.js';
import { pageTxn } from './redis-link-order.js';
import type { TxnRunner } from './redis-runner.js';

/** A list read again this often when the data is replaced between its reads. */
const LIST_ATTEMPTS = 5;
/** Reads of LINKS_PER_READ links sent at once: each is answered well within its timeout. */
const READS_AT_ONCE = 8;

/**
 * The ids, then their records LINKS_PER_READ at a time, all in the generation of the ids; a link
 * deleted in between is left out. Not bounded by the 2 s of a request, as an account can hold
 * very many links; each read is, so a Redis that is gone fails the first at once.
 */
export async function readLinksOf(runner: TxnRunner, accountId: string): Promise<LinkRecord[]> {
  for (let attempt = 0; attempt < LIST_ATTEMPTS; attempt += 1) {
    const listed = await runner.run((t, k) => t.read('SMEMBERS', k.linksOf(accountId)));
    const links = await linksIn(runner, listed.generation, listed.replies[0] as string[]);
    if (links) return links;
  }
  throw new Error(`store unavailable: the data was replaced ${LIST_ATTEMPTS} times while the links of ${accountId} were read`);
}

/**
 * One read from the account's sorted set (redis-link-order.ts), the records and click counts
 * with it. In a generation whose order is still being built (written before it existed), every
 * link of the account is read and sorted, as before the order existed.
 */
export async function readLinkPage(connection: RedisConnection, runner: TxnRunner, accountId: string, { after, limit }: PageRead): Promise<LinkRecord[]> {
  const count = Math.max(0, Math.min(limit, LINKS_PER_READ * 2));
  const [built, records, clicks] = await connection.bounded(() => runner.read((t, k) => pageTxn(t, k, accountId, after, count)));
  if (built === '1') return linksFrom([records, clicks]);
  const older = (await readLinksOf(runner, accountId)).filter((link) => !after || olderFirst(link, after) < 0);
  return older.sort((a, b) => olderFirst(b, a)).slice(0, count);
}

/** The links of these ids in `generation`, a few reads at a time; undefined when it was replaced meanwhile. */
async function linksIn(runner: TxnRunner, generation: string, ids: readonly string[]): Promise<LinkRecord[] | undefined> {
  const links: LinkRecord[] = [];
  for (let start = 0; start < ids.length; start += LINKS_PER_READ * READS_AT_ONCE) {
    const chunks = Array.from({ length: READS_AT_ONCE }, (_, i) => ids.slice(start + i * LINKS_PER_READ, start + (i + 1) * LINKS_PER_READ)).filter((chunk) => chunk.length > 0);
    const outcomes = await Promise.all(chunks.map((chunk) => runner.runAt(generation, (t, k) => readLinks(t, k, chunk))));
    for (const outcome of outcomes) {
      if (outcome.status === 'stale') return undefined;
      links.push(...linksFrom(outcome.replies));
    }
  }
  return links;
}
