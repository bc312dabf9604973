// A change to the data, as the store writes it to its append-only log: whole records put or
// deleted, so replaying a change twice, or on top of a newer base, ends in the same state.
import type { AccountRecord, LinkRecord, MockData, TagRecord } from './model.js';
import { putEntry } from './own-entry.js';

export type Change =
  | { op: 'put-link'; link: LinkRecord }
  | { op: 'delete-link'; id: string }
  | { op: 'put-tag'; tag: TagRecord }
  | { op: 'put-account'; account: AccountRecord };

export function applyChange(data: MockData, change: Change): void {
  switch (change.op) {
    case 'put-link':
      data.links.set(change.link.id, change.link);
      return;
    case 'delete-link':
      data.links.delete(change.id);
      return;
    case 'put-tag':
      putEntry(data.tags, change.tag.id, change.tag);
      return;
    case 'put-account': {
      // By key, as requests find accounts: the key is what an account is (--accept-any-key).
      const index = data.accounts.findIndex((account) => account.apiKey === change.account.apiKey);
      if (index === -1) data.accounts.push(change.account);
      else data.accounts[index] = change.account;
      return;
    }
  }
}

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (record: Fields, ...names: string[]): boolean => names.every((name) => typeof record[name] === 'string');

/** Field by field, not through `strings`: a start on 1,000,000 links checks each (its rest array and callback were 1% of the start). */
export function isLinkRecord(value: unknown): value is LinkRecord {
  if (!isObject(value)) return false;
  const link = value as Partial<Record<keyof LinkRecord, unknown>>;
  return (
    typeof link.id === 'string' &&
    typeof link.accountId === 'string' &&
    typeof link.domainId === 'string' &&
    typeof link.slug === 'string' &&
    typeof link.destinationUrl === 'string' &&
    typeof link.createdAt === 'string' &&
    typeof link.clickCount === 'number' &&
    Array.isArray(link.tagIds)
  );
}

export function isTagRecord(value: unknown): value is TagRecord {
  return isObject(value) && strings(value, 'id', 'accountId', 'name');
}

export function isAccountRecord(value: unknown): value is AccountRecord {
  return isObject(value) && strings(value, 'id', 'name', 'apiKey') && typeof value['linkLimit'] === 'number' && Array.isArray(value['domains']);
}

/** A log line is applied only when it is a whole, well-formed change. */
export function isChange(value: unknown): value is Change {
  if (!isObject(value)) return false;
  switch (value['op']) {
    case 'put-link':
      return isLinkRecord(value['link']);
    case 'delete-link':
      return typeof value['id'] === 'string';
    case 'put-tag':
      return isTagRecord(value['tag']);
    case 'put-account':
      return isAccountRecord(value['account']);
    default:
      return false;
  }
}

/** What the service asks the store to make durable: changes, or all data at once (reset, restore). */
export type StoreOp = Change | { op: 'replace'; data: MockData };
