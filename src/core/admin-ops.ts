// The admin API's changes to the data, as plain functions over the service: simulated clicks
// (D17), per-account link limits, and whole-state snapshots. No HTTP here either.
import type { Link } from '../api-types.js';
import { errors } from './errors.js';
import type { LinkService } from './links.js';
import type { AccountRecord, MockData } from './model.js';

export async function addClicks(service: LinkService, linkId: string, count: number): Promise<Link> {
  const link = service.state.linkById(linkId);
  if (!link) throw errors.linkNotFound(linkId);
  return service.mutate((state) => {
    link.clickCount += count;
    return { result: state.toLink(link), changes: [{ op: 'put-link', link }], undo: () => void (link.clickCount -= count) };
  });
}

/** A visit of https://<domain>/<slug>: one click, and where to send the visitor. */
export async function visit(service: LinkService, domain: string, slug: string): Promise<string> {
  const link = service.state.linkAt(domain, slug);
  if (!link) throw errors.shortUrlNotFound(domain, slug);
  await service.mutate(() => {
    link.clickCount += 1;
    return { result: undefined, changes: [{ op: 'put-link', link }], undo: () => void (link.clickCount -= 1) };
  });
  return link.destinationUrl;
}

export function accountByKey(service: LinkService, apiKey: string): AccountRecord {
  const account = service.state.accountByKey(apiKey);
  if (!account) throw errors.accountNotFound(apiKey);
  return account;
}

export async function setLinkLimit(service: LinkService, apiKey: string, linkLimit: number): Promise<AccountRecord> {
  const account = accountByKey(service, apiKey);
  const before = account.linkLimit;
  return service.mutate(() => {
    account.linkLimit = linkLimit;
    return { result: account, changes: [{ op: 'put-account', account }], undo: () => void (account.linkLimit = before) };
  });
}

/** The account's links as the API shows them, newest first (by createdAt). */
export function linksOfAccount(service: LinkService, apiKey: string): Link[] {
  const state = service.state;
  return state
    .linksOf(accountByKey(service, apiKey))
    // createdAt is an ISO 8601 UTC timestamp: plain string order is time order (and localeCompare
    // was far slower on a large account).
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    .map((link) => state.toLink(link));
}

/** A deep copy of the whole state, safe from later changes. */
export function snapshotOf(service: LinkService): MockData {
  return structuredClone(service.state.data);
}
