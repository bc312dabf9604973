// One page of an account's links for the admin API (GET /__admin/links?account=&limit=&cursor=),
// newest first: by createdAt, then by id, a total order, so that a cursor (the last link shown)
// names exactly where the next page starts, and links made meanwhile (newer: before it) or deleted
// never shift a page. The answer's work is bounded by the page: each domain and tag the page
// names is read once, a few at a time, not once per link (issue 23: 18,000 links, each read
// several times at once, ran Redis's commands past their timeout). No HTTP here.
import type { Awaitable } from './awaitable.js';
import type { Link } from './api-types.js';
import { errors } from './errors.js';
import type { LinkService } from './links.js';
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

/** The page of `links` (all of one account's, in any order) that `request` asks for. */
export async function linkPage(service: LinkService, links: LinkRecord[], request: PageRequest): Promise<LinkPage> {
  const limit = Math.min(request.limit ?? MAX_LINKS_PER_PAGE, MAX_LINKS_PER_PAGE);
  const after = request.cursor === undefined ? undefined : decodeCursor(request.cursor);
  const rest = after ? links.filter((link) => newestFirst(link, after) > 0) : links;
  rest.sort(newestFirst);
  const shown = rest.slice(0, limit);
  const last = shown.at(-1);
  return { links: await viewAll(service, shown), ...(rest.length > limit && last ? { nextCursor: encodeCursor(last) } : {}) };
}

type Position = Pick<LinkRecord, 'createdAt' | 'id'>;

/** Negative when `a` comes first. createdAt is ISO 8601 UTC: string order is time order. */
function newestFirst(a: Position, b: Position): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

const encodeCursor = (link: Position): string => Buffer.from(JSON.stringify([link.createdAt, link.id])).toString('base64url');

function decodeCursor(cursor: string): Position {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && typeof id === 'string') return { createdAt, id };
  } catch {
    // refused below
  }
  throw errors.invalidRequest(`query: 'cursor' is not one this mock gave; send the nextCursor of the page before, or none for the first page`);
}

/** The links as the API shows them, each domain and tag they name read once. */
async function viewAll(service: LinkService, links: LinkRecord[]): Promise<Link[]> {
  const { store } = service;
  const domains = await readEach([...new Set(links.map((link) => link.domainId))], (id) => store.domainById(id));
  const tags = await readEach([...new Set(links.flatMap((link) => link.tagIds))], (id) => store.tagById(id));
  const { shape } = service;
  return links.map((link) => {
    const view = toLink(link, domains.get(link.domainId), link.tagIds.map((id) => tags.get(id)));
    return shape ? shape.shown(view, link) : view;
  });
}

async function readEach<T extends DomainRecord | TagRecord>(ids: string[], read: (id: string) => Awaitable<T | undefined>): Promise<Map<string, T | undefined>> {
  const found = new Map<string, T | undefined>();
  for (let start = 0; start < ids.length; start += READS_AT_ONCE) {
    const chunk = ids.slice(start, start + READS_AT_ONCE);
    const records = await Promise.all(chunk.map(read));
    chunk.forEach((id, i) => found.set(id, records[i]));
  }
  return found;
}
