// The whole data (MockData) and the key layout of one generation (redis-keys.ts), both ways: the
// commands that write it into a generation no one reads yet, made one at a time as they are sent
// (at 1,000,000 links all of them at once would double the memory a seed takes), and the one
// atomic read of a snapshot that gives it back (on a Redis without COPY: redis-snapshot-read.ts).
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import { putEntry } from '../../core/own-entry.js';
import { SplitLinkTable } from '../../core/link-table.js';
import { domainField, slugField, tagNameField, type GenerationKeys } from './redis-keys.js';
import { LINK_ORDER_FIELD, orderMember } from './redis-link-order.js';
import { decodeLink, encodeDomainEntry, encodeLink } from './redis-records.js';
import { pairs, type Txn } from './redis-txn.js';

/**
 * Records (hash fields, set or list members, sorted-set entries) per command while a generation is
 * written: one command of 500 link records is about 150 KB, which Redis stores in about a
 * millisecond, so each answers far within the command deadline (COMMAND_TIMEOUT_MS) on a busy
 * machine too, however large the data.
 */
export const WRITE_BATCH = 500;

type Command = string[];

/**
 * The commands that write `data` into the generation of `keys`, which must be empty, at most
 * `batch` records each, made as they are asked for. Nothing in them is visible until the
 * generation is made current (redis-generations.ts), so their number changes nothing for readers.
 */
export function* generationCommands(keys: GenerationKeys, data: MockData, batch = WRITE_BATCH): Generator<Command> {
  if (!Number.isInteger(batch) || batch < 1) throw new Error(`a batch of ${batch} records: it must be a whole number of at least 1`);
  yield ['HSET', keys.meta, 'formatVersion', String(data.formatVersion), 'seed', String(data.seed), 'defaultDomain', JSON.stringify(data.defaultDomain), LINK_ORDER_FIELD, '1'];
  const hash = <T>(key: string, items: readonly T[], entry: (item: T) => [string, string]): Generator<Command> => batched('HSET', key, items, batch, entry);
  const list = (op: 'SADD' | 'RPUSH', key: string, members: readonly string[]): Generator<Command> => batched(op, key, members, batch, (member) => [member]);

  yield* hash(keys.accounts, data.accounts, (account) => [account.apiKey, JSON.stringify(account)]);
  yield* hash(keys.accountIds, data.accounts, (account) => [account.id, account.apiKey]);
  yield* list('RPUSH', keys.accountOrder, data.accounts.map((account) => account.apiKey));
  const domains = [{ domain: data.defaultDomain }, ...data.accounts.flatMap((account) => account.domains.map((domain) => ({ domain, ownerId: account.id })))];
  yield* hash(keys.domains, domains, (entry) => [domainField(entry.domain.name), encodeDomainEntry(entry)]);
  yield* hash(keys.domainIds, domains, ({ domain }) => [domain.id, JSON.stringify(domain)]);

  const tags = Object.values(data.tags);
  yield* hash(keys.tags, tags, (tag) => [tag.id, JSON.stringify(tag)]);
  yield* hash(keys.tagNames, tags, (tag) => [tagNameField(tag.accountId, tag.name), JSON.stringify(tag)]);

  const links = [...data.links.values()];
  yield* hash(keys.links, links, (link) => [link.id, encodeLink(link)]);
  yield* hash(keys.clicks, links, (link) => [link.id, String(link.clickCount)]);
  yield* hash(keys.slugs, links, (link) => [slugField(link.domainId, link.slug), link.id]);
  const byAccount = groupBy(links, (link) => link.accountId);
  for (const [accountId, owned] of byAccount) yield* batched('SADD', keys.linksOf(accountId), owned, batch, (link) => [link.id]);
  for (const [accountId, owned] of byAccount) yield* batched('ZADD', keys.linksByTime(accountId), owned, batch, (link) => ['0', orderMember(link)]);
  yield* hash(keys.linkCounts, [...byAccount], ([accountId, owned]) => [accountId, String(owned.length)]);
}

/** One read of everything a snapshot holds: atomic, so it is the data of one moment. */
export function snapshotTxn(txn: Txn, keys: GenerationKeys): Txn {
  return txn
    .read('HGETALL', keys.meta)
    .read('LRANGE', keys.accountOrder, '0', '-1')
    .read('HGETALL', keys.accounts)
    .read('HGETALL', keys.tags)
    .read('HGETALL', keys.links)
    .read('HGETALL', keys.clicks);
}

/** The replies of snapshotTxn as MockData. */
export function snapshotData(replies: unknown[]): MockData {
  const [meta, order, accounts, tags, links, clicks] = [pairs(replies[0]), replies[1] as string[], pairs(replies[2]), pairs(replies[3]), pairs(replies[4]), pairs(replies[5])];
  const data: MockData = {
    formatVersion: Number(meta.get('formatVersion')),
    seed: Number(meta.get('seed')),
    defaultDomain: JSON.parse(meta.get('defaultDomain') ?? 'null') as DomainRecord,
    accounts: order.map((apiKey) => JSON.parse(accounts.get(apiKey) as string) as AccountRecord),
    tags: {},
    links: new SplitLinkTable(),
  };
  for (const [id, json] of tags) putEntry(data.tags, id, JSON.parse(json) as TagRecord);
  for (const [id, json] of links) data.links.set(id, decodeLink(json, clicks.get(id) ?? '0') as LinkRecord);
  return data;
}

/** `op key` with the arguments of `batch` items at a time (an item's pair, field and value or score and member, never split). */
function* batched<T>(op: string, key: string, items: readonly T[], batch: number, argsOf: (item: T) => string[]): Generator<Command> {
  for (let start = 0; start < items.length; start += batch) {
    const command = [op, key];
    for (let at = start; at < Math.min(start + batch, items.length); at += 1) command.push(...argsOf(items[at] as T));
    yield command;
  }
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
