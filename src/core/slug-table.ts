// One domain's slugs → their links (MockState's slug index, a seed's slugs in use). One Map of a
// million slugs grew in one step of ~73 ms CPU past 524,288 (bench/replace-stalls.md), while a
// restore or a reset built it and while a create crossed the next size: the event loop held that
// long (issue 40). Here the slugs are spread over SLUG_TABLES Maps, so each grows by itself, a
// 64th of the size. Only what the index asks of a Map; no order is kept (nothing lists slugs).
import type { LinkRecord } from './model.js';
import { ownText } from './own-text.js';

/** How many Maps a domain's slugs are spread over: at 1,000,000 slugs ~16,000 each. */
export const SLUG_TABLES = 64;

/**
 * The table of a slug: its length and its last three characters mixed. Half of the seeded slugs are
 * lorem words, whose last letters alone are few; a slug of one character still has a table.
 */
const tableOf = (slug: string): number => {
  const end = slug.length;
  return (end * 37 + slug.charCodeAt(end - 1) * 31 * 31 + (slug.charCodeAt(end - 2) | 0) * 31 + (slug.charCodeAt(end - 3) | 0)) & (SLUG_TABLES - 1);
};

export class SlugTable {
  private readonly tables: Map<string, LinkRecord>[] = Array.from({ length: SLUG_TABLES }, () => new Map());
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(slug: string): LinkRecord | undefined {
    return (this.tables[tableOf(slug)] as Map<string, LinkRecord>).get(slug);
  }

  has(slug: string): boolean {
    return (this.tables[tableOf(slug)] as Map<string, LinkRecord>).has(slug);
  }

  /** Puts the link under `slug`; true when the slug was free (a lookup before the set would be a second one). */
  put(slug: string, link: LinkRecord): boolean {
    const table = this.tables[tableOf(slug)] as Map<string, LinkRecord>;
    const size = table.size;
    table.set(slug, link);
    if (table.size === size) return false;
    this.count += 1;
    return true;
  }

  delete(slug: string): boolean {
    if (!(this.tables[tableOf(slug)] as Map<string, LinkRecord>).delete(slug)) return false;
    this.count -= 1;
    return true;
  }

  /** The largest of the Maps (tests: none holds all). */
  largestTable(): number {
    return Math.max(...this.tables.map((table) => table.size));
  }
}

/** Domain id → its slugs. Nested, not one table of joined keys: no extra string per link. */
export type SlugIndex = Map<string, SlugTable>;

/**
 * Slots the link's slug in its domain's table; false when a link held that slug (this one took its
 * place). The link and the table keep a copy of the slug of their own (own-text.ts): a slug parsed by
 * JSON.parse (a file's, a request's) is internalized, an entry of V8's string table for as long as it is held.
 */
export function slotSlug(index: SlugIndex, link: LinkRecord): boolean {
  let bySlug = index.get(link.domainId);
  if (!bySlug) index.set(link.domainId, (bySlug = new SlugTable()));
  const slug = ownText(link.slug);
  link.slug = slug;
  return bySlug.put(slug, link);
}
