// The admin API's changes to the data, as plain functions over the service: simulated clicks
// (D17), per-account link limits, and whole-state snapshots. No HTTP here either.
import type { Link } from './api-types.js';
import { linkPage, type LinkPage, type PageRequest } from './link-page.js';
import { errors } from './errors.js';
import type { LinkService } from './links.js';
import { saved } from './saved.js';
import type { AccountRecord } from './model.js';
import type { SnapshotInfo, SnapshotStore } from './snapshots.js';

export async function addClicks(service: LinkService, linkId: string, count: number): Promise<Link> {
  const link = await saved(service.store.addClicks(linkId, count));
  if (!link) throw errors.linkNotFound(linkId);
  return service.view(link);
}

/** A visit of https://<domain>/<slug>: one click, and where to send the visitor. */
export async function visit(service: LinkService, domainName: string, slug: string): Promise<string> {
  const entry = await service.store.domainByName(domainName);
  const link = entry && (await service.store.linkAt(entry.domain.id, slug));
  const clicked = link && (await saved(service.store.addClicks(link.id, 1)));
  if (!clicked) throw errors.shortUrlNotFound(domainName, slug);
  return clicked.destinationUrl;
}

export async function accountByKey(service: LinkService, apiKey: string): Promise<AccountRecord> {
  const account = await service.store.accountByKey(apiKey);
  if (!account) throw errors.accountNotFound(apiKey);
  return account;
}

export async function setLinkLimit(service: LinkService, apiKey: string, linkLimit: number): Promise<AccountRecord> {
  const account = await accountByKey(service, apiKey);
  const changed = await saved(service.store.setLinkLimit(account.id, linkLimit));
  if (!changed) throw errors.accountNotFound(apiKey);
  return changed;
}

/** A page of the account's links as the API shows them, newest first (link-page.ts). */
export async function linksOfAccount(service: LinkService, apiKey: string, page: PageRequest = {}): Promise<LinkPage> {
  return linkPage(service, (await accountByKey(service, apiKey)).id, page);
}

/**
 * Saves the whole state as it is now under `name`: lent to the snapshot store without a copy when
 * both can (the file store writing its file, issue 40), else as a deep copy, safe from later changes.
 */
export function saveSnapshot(service: LinkService, snapshots: SnapshotStore, name: string): Promise<SnapshotInfo> {
  const { store } = service;
  if (store.lendSnapshot && snapshots.saveFrom) return store.lendSnapshot((data) => (snapshots.saveFrom as NonNullable<SnapshotStore['saveFrom']>)(name, data));
  return store.snapshot().then((data) => snapshots.save(name, data));
}
