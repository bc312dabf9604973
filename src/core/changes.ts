// A change to the data, as the store writes it to its append-only log: whole records put or
// deleted, so replaying a change twice, or on top of a newer base, ends in the same state.
import type { AccountRecord, LinkRecord, MockData, TagRecord } from './model.js';

export type Change =
  | { op: 'put-link'; link: LinkRecord }
  | { op: 'delete-link'; id: string }
  | { op: 'put-tag'; tag: TagRecord }
  | { op: 'put-account'; account: AccountRecord };

export function applyChange(data: MockData, change: Change): void {
  switch (change.op) {
    case 'put-link':
      data.links[change.link.id] = change.link;
      return;
    case 'delete-link':
      delete data.links[change.id];
      return;
    case 'put-tag':
      data.tags[change.tag.id] = change.tag;
      return;
    case 'put-account': {
      const index = data.accounts.findIndex((account) => account.id === change.account.id);
      if (index === -1) data.accounts.push(change.account);
      else data.accounts[index] = change.account;
      return;
    }
  }
}

export function isChange(value: unknown): value is Change {
  const op = (value as { op?: unknown } | null)?.op;
  return op === 'put-link' || op === 'delete-link' || op === 'put-tag' || op === 'put-account';
}

/** What the service asks the store to make durable: changes, or all data at once (reset, restore). */
export type StoreOp = Change | { op: 'replace'; data: MockData };
