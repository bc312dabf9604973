// The Redis store's transactions that touch many keys at once, as plain functions over a Txn:
// what each checks (facts only: a field present, absent or equal) and what it then writes.
import type { LinkRecord } from '../../core/model.js';
import type { CreateOutcome, NewLink, SeededAccount } from '../../core/link-store.js';
import { domainField, slugField, tagNameField, type GenerationKeys } from './redis-keys.js';
import { decodeLink, encodeDomainEntry, encodeLink } from './redis-records.js';
import { addToOrder, orderMember } from './redis-link-order.js';
import type { RememberedBasis } from './redis-remembered-accounts.js';
import type { Txn } from './redis-txn.js';

/** Links per read of many: each read stays quick, and Lua's unpack has a limit near 8,000 values. */
export const LINKS_PER_READ = 1_000;

/**
 * A create's checks, in the order of CreateOutcome (link-store.ts), then its writes; `outcomeOf`
 * names the check that failed. A create decided on a remembered account first checks its `basis`
 * (redis-remembered-accounts.ts). A new tag is written under its id and its name, so a name never
 * points at a missing tag.
 */
export function createTxn(t: Txn, k: GenerationKeys, { link, linkLimit, newTags }: NewLink, basis?: RememberedBasis): (failed: number) => CreateOutcome {
  const made = new Set(newTags.map((tag) => tag.id));
  const existing = link.tagIds.filter((id) => !made.has(id));
  const reread = basis ? 3 : 0;
  if (basis) t.check('equals?', k.accounts, basis.apiKey, basis.json).check('unset?', basis.globalKey, '').check('lacks?', basis.byKeyKey, basis.apiKey);
  t.check('has?', k.accountIds, link.accountId).check('has?', k.domainIds, link.domainId);
  for (const tagId of existing) t.check('has?', k.tags, tagId);
  t.check('below?', k.linkCounts, link.accountId, linkLimit);
  for (const tag of newTags) t.check('lacks?', k.tagNames, tagNameField(tag.accountId, tag.name)).check('lacks?', k.tags, tag.id);
  t.check('lacks?', k.slugs, slugField(link.domainId, link.slug)).check('lacks?', k.links, link.id);

  for (const tag of newTags) t.write('HSET', k.tags, tag.id, JSON.stringify(tag)).write('HSET', k.tagNames, tagNameField(tag.accountId, tag.name), JSON.stringify(tag));
  t.write('HSET', k.links, link.id, encodeLink(link))
    .write('HSET', k.clicks, link.id, link.clickCount)
    .write('HSET', k.slugs, slugField(link.domainId, link.slug), link.id)
    .write('SADD', k.linksOf(link.accountId), link.id)
    .write('HINCRBY', k.linkCounts, link.accountId, 1);
  addToOrder(t, k, link);

  const gone = reread + 2 + existing.length;
  const limit = gone + 1;
  const names = limit + 2 * newTags.length;
  return (failed) =>
    failed <= reread ? 'reread' : failed <= gone ? 'gone' : failed === limit ? 'limit' : failed <= names ? 'tag-name' : failed === names + 1 ? 'slug' : 'id';
}

/** Removes the link if it is there, with its clicks, its count under the limit, its slug if still its own. */
export function deleteTxn(t: Txn, k: GenerationKeys, link: LinkRecord): Txn {
  return t
    .check('has?', k.links, link.id)
    .write('HDEL', k.links, link.id)
    .write('HDEL', k.clicks, link.id)
    .write('SREM', k.linksOf(link.accountId), link.id)
    .write('ZREM', k.linksByTime(link.accountId), orderMember(link))
    .write('HDELEQ', k.slugs, slugField(link.domainId, link.slug), link.id)
    .write('HINCRBY', k.linkCounts, link.accountId, -1);
}

/** The check that fails first when the key has its account already; `otherwise` then reads that account. */
export const ACCOUNT_TAKEN = 1;

/** A new account with its domains, tags and links, if its key is new and none of its ids, slugs or names is taken. */
export function addAccountTxn(t: Txn, k: GenerationKeys, seeded: SeededAccount): Txn {
  const { account, tags, links } = seeded;
  t.check('lacks?', k.accounts, account.apiKey).check('lacks?', k.accountIds, account.id).otherwise('HGET', k.accounts, account.apiKey);
  for (const domain of account.domains) t.check('lacks?', k.domains, domainField(domain.name)).check('lacks?', k.domainIds, domain.id);
  for (const tag of tags) t.check('lacks?', k.tags, tag.id).check('lacks?', k.tagNames, tagNameField(tag.accountId, tag.name));
  for (const link of links) t.check('lacks?', k.links, link.id).check('lacks?', k.slugs, slugField(link.domainId, link.slug));

  t.write('HSET', k.accounts, account.apiKey, JSON.stringify(account)).write('HSET', k.accountIds, account.id, account.apiKey).write('RPUSH', k.accountOrder, account.apiKey);
  for (const domain of account.domains) {
    t.write('HSET', k.domains, domainField(domain.name), encodeDomainEntry({ domain, ownerId: account.id })).write('HSET', k.domainIds, domain.id, JSON.stringify(domain));
  }
  for (const tag of tags) t.write('HSET', k.tags, tag.id, JSON.stringify(tag)).write('HSET', k.tagNames, tagNameField(tag.accountId, tag.name), JSON.stringify(tag));
  for (const link of links) {
    t.write('HSET', k.links, link.id, encodeLink(link)).write('HSET', k.clicks, link.id, link.clickCount);
    t.write('HSET', k.slugs, slugField(link.domainId, link.slug), link.id).write('SADD', k.linksOf(account.id), link.id);
    addToOrder(t, k, link);
  }
  if (links.length > 0) t.write('HINCRBY', k.linkCounts, account.id, links.length);
  return t;
}

/** Whether addAccountTxn's check number `failed` (1-based) is the one of a link's slug (each link's second). */
export function isSlugCheck({ account, tags, links }: SeededAccount, failed: number): boolean {
  const firstLinkCheck = 3 + 2 * account.domains.length + 2 * tags.length;
  const offset = failed - firstLinkCheck;
  return offset >= 0 && offset < 2 * links.length && offset % 2 === 1;
}

/** Reads the records and click counts of these links (at most LINKS_PER_READ). */
export function readLinks(t: Txn, k: GenerationKeys, ids: readonly string[]): Txn {
  return t.read('HMGET', k.links, ...ids).read('HMGET', k.clicks, ...ids);
}

/** The links readLinks found, leaving out those deleted since their ids were listed. */
export function linksFrom(replies: unknown[]): LinkRecord[] {
  const [records, clicks] = replies as [unknown[], unknown[]];
  return records.flatMap((record, i) => decodeLink(record, clicks[i]) ?? []);
}
