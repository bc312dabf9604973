// The whole data (MockData) and the key layout of one generation (redis-keys.ts), both ways: the
// commands that write it into a generation no one reads yet, and the one atomic read of a
// snapshot that gives it back.
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import { putEntry } from '../../core/own-entry.js';
import { domainField, slugField, tagNameField, type GenerationKeys } from './redis-keys.js';
import { LINK_ORDER_FIELD, orderMember } from './redis-link-order.js';
import { decodeLink, encodeDomainEntry, encodeLink } from './redis-records.js';
import { pairs, type Txn } from './redis-txn.js';

/** Fields per HSET (and members per SADD/RPUSH): each command stays small and quick. */
const CHUNK = 500;

type Command = string[];

/** The commands that write `data` into the generation of `keys`, which must be empty. */
export function generationCommands(keys: GenerationKeys, data: MockData): Command[] {
  const commands: Command[] = [['HSET', keys.meta, 'formatVersion', String(data.formatVersion), 'seed', String(data.seed), 'defaultDomain', JSON.stringify(data.defaultDomain), LINK_ORDER_FIELD, '1']];
  const hash = (key: string, entries: Array<[string, string]>): void => void commands.push(...chunked('HSET', key, entries.flat()));
  const list = (op: 'SADD' | 'RPUSH', key: string, members: string[]): void => void commands.push(...chunked(op, key, members));

  hash(keys.accounts, data.accounts.map((account) => [account.apiKey, JSON.stringify(account)]));
  hash(keys.accountIds, data.accounts.map((account) => [account.id, account.apiKey]));
  list('RPUSH', keys.accountOrder, data.accounts.map((account) => account.apiKey));
  const domains = [{ domain: data.defaultDomain }, ...data.accounts.flatMap((account) => account.domains.map((domain) => ({ domain, ownerId: account.id })))];
  hash(keys.domains, domains.map((entry) => [domainField(entry.domain.name), encodeDomainEntry(entry)]));
  hash(keys.domainIds, domains.map(({ domain }) => [domain.id, JSON.stringify(domain)]));

  const tags = Object.values(data.tags);
  hash(keys.tags, tags.map((tag) => [tag.id, JSON.stringify(tag)]));
  hash(keys.tagNames, tags.map((tag) => [tagNameField(tag.accountId, tag.name), JSON.stringify(tag)]));

  const links = Object.values(data.links);
  hash(keys.links, links.map((link) => [link.id, encodeLink(link)]));
  hash(keys.clicks, links.map((link) => [link.id, String(link.clickCount)]));
  hash(keys.slugs, links.map((link) => [slugField(link.domainId, link.slug), link.id]));
  const byAccount = groupBy(links, (link) => link.accountId);
  for (const [accountId, owned] of byAccount) list('SADD', keys.linksOf(accountId), owned.map((link) => link.id));
  // Score and member pairs: a chunk of CHUNK * 2 never splits one.
  for (const [accountId, owned] of byAccount) commands.push(...chunked('ZADD', keys.linksByTime(accountId), owned.flatMap((link) => ['0', orderMember(link)])));
  hash(keys.linkCounts, [...byAccount].map(([accountId, owned]) => [accountId, String(owned.length)]));
  return commands;
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
    links: {},
  };
  for (const [id, json] of tags) putEntry(data.tags, id, JSON.parse(json) as TagRecord);
  for (const [id, json] of links) putEntry(data.links, id, decodeLink(json, clicks.get(id) ?? '0') as LinkRecord);
  return data;
}

function chunked(op: string, key: string, args: string[]): Command[] {
  const commands: Command[] = [];
  // HSET args come in pairs: an even chunk never splits one.
  for (let start = 0; start < args.length; start += CHUNK * 2) commands.push([op, key, ...args.slice(start, start + CHUNK * 2)]);
  return commands;
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
