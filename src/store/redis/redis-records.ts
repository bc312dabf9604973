// Records as the Redis store keeps them: JSON strings, a link without its click count (that lives
// in the `clicks` hash, incremented in place). A link's JSON is written in one fixed field order,
// so the record the core holds encodes to exactly the stored string: an update compares-and-sets
// against it without reading it first.
import type { DomainEntry } from '../../core/link-store.js';
import type { LinkRecord } from '../../core/model.js';

export function encodeLink(link: LinkRecord): string {
  return JSON.stringify({
    id: link.id,
    accountId: link.accountId,
    domainId: link.domainId,
    slug: link.slug,
    destinationUrl: link.destinationUrl,
    ...(link.title === undefined ? {} : { title: link.title }),
    createdAt: link.createdAt,
    tagIds: link.tagIds,
    // A contract FILE's new Link fields (--contract), last: absent with the shipped contract.
    ...(link.extra === undefined ? {} : { extra: link.extra }),
  });
}

/** The link of a stored JSON and click count; undefined when either is missing (deleted). */
export function decodeLink(json: unknown, clicks: unknown): LinkRecord | undefined {
  if (typeof json !== 'string' || clicks === null || clicks === undefined || clicks === false) return undefined;
  const { tagIds, ...fields } = JSON.parse(json) as Omit<LinkRecord, 'clickCount'>;
  // The model's field order, clickCount before tagIds, as every other store gives it.
  return { ...fields, clickCount: Number(clicks), tagIds };
}

/** A JSON reply, parsed; undefined for a missing one. */
export function decodeJson<T>(reply: unknown): T | undefined {
  return typeof reply === 'string' ? (JSON.parse(reply) as T) : undefined;
}

export function encodeDomainEntry(entry: DomainEntry): string {
  return JSON.stringify(entry.ownerId === undefined ? { domain: entry.domain } : { domain: entry.domain, ownerId: entry.ownerId });
}
