// A stored link as the API shows it (section 2.1 of the API document), from the records it names.
import type { Link } from './api-types.js';
import type { DomainRecord, LinkRecord, TagRecord } from './model.js';

export function toLink(link: LinkRecord, domain: DomainRecord | undefined, tags: ReadonlyArray<TagRecord | undefined>): Link {
  if (!domain) throw new Error(`data corrupt: link ${link.id} names unknown domain ${link.domainId}`);
  const shownTags = tags.map((tag, index) => {
    if (!tag) throw new Error(`data corrupt: link ${link.id} names unknown tag ${link.tagIds[index] ?? ''}`);
    return { id: tag.id, name: tag.name };
  });
  const shown = { id: domain.id, name: domain.name };
  const shortUrl = `https://${domain.name}/${link.slug}`;
  // Two literals rather than a spread of the optional title: one fixed shape each, and the same
  // key order either way (a spread copied every field again: ~7% of an admin list's CPU).
  if (link.title === undefined) {
    return { id: link.id, createdAt: link.createdAt, destinationUrl: link.destinationUrl, slug: link.slug, domain: shown, shortUrl, clickCount: link.clickCount, tags: shownTags };
  }
  return { id: link.id, createdAt: link.createdAt, destinationUrl: link.destinationUrl, title: link.title, slug: link.slug, domain: shown, shortUrl, clickCount: link.clickCount, tags: shownTags };
}
