// One page of an account's links for the admin API (GET /__admin/links?account=&limit=&cursor=) and
// a contract FILE's list, newest first (link-order.ts): the store reads the page from its index of
// the account's links (LinkStore.linkPageOf), so the work is bounded by the page, not by the
// account (issue 40: a sort of every link per request took 8 s at 1,000,000). A cursor names the
// last link shown and its account: links made meanwhile (newer: before it) or deleted never shift
// a page, and another account's cursor is refused. Each domain and tag the page names is read
// once, a few at a time, not once per link (issue 23). No HTTP here.
import type { Awaitable } from './awaitable.js';
import type { Link } from './api-types.js';
import { errors } from './errors.js';
import type { LinkService } from './links.js';
import type { LinkPosition } from './link-order.js';
import { toLink } from './link-view.js';
import type { DomainRecord, LinkRecord, TagRecord } from './model.js';

/** Links per page at most, and when the request names no limit (src/admin/openapi.yaml says the same). */
export const MAX_LINKS_PER_PAGE = 1_000;
/** Domain and tag reads sent at once while a page is shown. */
const READS_AT_ONCE = 32;

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

export interface LinkPage {
  links: Link[];
  /** Where the next page starts; absent on the last page. */
  nextCursor?: string;
}

/** What the refusal of a cursor says. */
export const CURSOR_REFUSED = `query: 'cursor' is not one this mock gave for this account; send the nextCursor of the page before, or none for the first page`;

/** The page of the account's links that `request` asks for; a cursor this mock did not give for this account is a 400. */
export async function linkPage(service: LinkService, accountId: string, request: PageRequest): Promise<LinkPage> {
  const limit = Math.min(request.limit ?? MAX_LINKS_PER_PAGE, MAX_LINKS_PER_PAGE);
  let after: LinkPosition | undefined;
  if (request.cursor !== undefined) {
    after = readCursor(request.cursor, accountId);
    if (!after) throw errors.invalidRequest(CURSOR_REFUSED);
  }
  // One more than shown: whether a next page exists, without counting the account's links.
  const read = await service.store.linkPageOf(accountId, { ...(after ? { after } : {}), limit: limit + 1 });
  const shown = read.slice(0, limit);
  const last = shown.at(-1);
  return { links: await viewAll(service, shown), ...(read.length > limit && last ? { nextCursor: encodeCursor(last) } : {}) };
}

const encodeCursor = (link: LinkRecord): string => Buffer.from(JSON.stringify([link.createdAt, link.id, link.accountId])).toString('base64url');

/** The position a cursor names, or undefined when this mock did not give it for this account. */
export function readCursor(cursor: string, accountId: string): LinkPosition | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 3) return undefined;
  const [createdAt, id, owner] = value as unknown[];
  return typeof createdAt === 'string' && typeof id === 'string' && owner === accountId ? { createdAt, id } : undefined;
}

/** The links as the API shows them, each domain and tag they name read once. */
async function viewAll(service: LinkService, links: LinkRecord[]): Promise<Link[]> {
  const { store } = service;
  const domainIds = new Set<string>();
  const tagIds = new Set<string>();
  for (const link of links) {
    domainIds.add(link.domainId);
    for (const id of link.tagIds) tagIds.add(id);
  }
  const domains = await readEach([...domainIds], (id) => store.domainById(id));
  const tags = await readEach([...tagIds], (id) => store.tagById(id));
  const { shape } = service;
  return links.map((link) => {
    const view = toLink(link, domains.get(link.domainId), link.tagIds.map((id) => tags.get(id)));
    return shape ? shape.shown(view, link) : view;
  });
}

/**
 * Each record read, a few at a time. A store that answers at once (the memory store) is not
 * waited on: a Promise.all and a turn of the microtask queue per chunk were most of a small page's
 * cost in this function (issue 40, the read-heavy workload).
 */
async function readEach<T extends DomainRecord | TagRecord>(ids: string[], read: (id: string) => Awaitable<T | undefined>): Promise<Map<string, T | undefined>> {
  const found = new Map<string, T | undefined>();
  for (let start = 0; start < ids.length; start += READS_AT_ONCE) {
    const chunk = ids.slice(start, start + READS_AT_ONCE);
    const answers = chunk.map(read);
    const records = answers.some(isThenable) ? await Promise.all(answers) : (answers as Array<T | undefined>);
    chunk.forEach((id, i) => found.set(id, records[i]));
  }
  return found;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
