// A restore that keeps the stored records its snapshot did not change (issue 40). Read anew, a
// snapshot of 1,000,000 links is a million new records alive together with the state they replace:
// at 1M the young generation's collections copied them all (3.6-11.7 s of pauses a restore on the
// loaded 2-core machine), and the old generation grew to ~1.6 GB for one full collection of seconds
// of marking. Taking the stored record for each link equal to it, the records read die young.
// A taken record is shared with the state being replaced until the replace: a change in place
// meanwhile (an update, a click, or the undo of one that could not be written: local-link-store.ts
// calls `beforeChange` first) puts a copy of it as it was in the data read, and the data's kept
// batches, which hold the record, are forgotten (core/link-batches.ts: taken from its keys instead).
import type { LinkRecord, LinkTable } from '../../core/model.js';
import type { KnownLinks } from '../../core/snapshots.js';
import type { MockState } from '../../core/state.js';
import { cloneLink } from './link-copy.js';

export class ReusedLinks implements KnownLinks {
  private links: LinkTable | undefined;
  /** Whether a record taken was changed since, and a copy put in its place in `links`. */
  changed = false;

  constructor(private state: MockState | undefined) {}

  into(links: LinkTable): void {
    this.links = links;
  }

  take(id: string, link: LinkRecord): LinkRecord {
    const stored = this.state?.linkById(id);
    return stored !== undefined && sameLink(stored, link) ? stored : link;
  }

  /** Before `link` is changed in place: if the read took it, the data read gets it as it is now. */
  beforeChange(link: LinkRecord): void {
    const links = this.links;
    if (!links || links.get(link.id) !== link) return;
    links.set(link.id, cloneLink(link));
    this.changed = true;
  }

  /** Holds neither the state nor the data any more (the replace took the data, or the read failed). */
  done(): void {
    this.state = undefined;
    this.links = undefined;
  }
}

/**
 * The reads of one store that take its records (LinkStore.readReusing), each watched from its start
 * until the replace of the data it read (`end`), or until that data is dropped (a failed restore):
 * weakly, through the links object it read into.
 */
export class ReusingReads {
  private readonly reads = new Set<WeakRef<ReusedLinks>>();
  private readonly byLinks = new WeakMap<LinkTable, ReusedLinks>();

  async read<T>(state: MockState, read: (known: KnownLinks) => Promise<T>): Promise<T> {
    const reused = new ReusedLinks(state);
    const watch = new WeakRef(reused);
    this.reads.add(watch);
    const known: KnownLinks = {
      into: (links) => {
        reused.into(links);
        this.byLinks.set(links, reused);
      },
      take: (id, link) => reused.take(id, link),
    };
    try {
      return await read(known);
    } catch (error) {
      this.reads.delete(watch);
      reused.done();
      throw error;
    }
  }

  beforeChange(link: LinkRecord): void {
    for (const watch of this.reads) {
      const reused = watch.deref();
      if (reused) reused.beforeChange(link);
      else this.reads.delete(watch);
    }
  }

  /** The read into `links`, watched no more (its replace has started: changes wait), or undefined when none read into it. */
  end(links: LinkTable): { changed: boolean } | undefined {
    const reused = this.byLinks.get(links);
    if (!reused) return undefined;
    this.byLinks.delete(links);
    for (const watch of this.reads) if (watch.deref() === reused) this.reads.delete(watch);
    reused.done();
    return { changed: reused.changed };
  }
}

/** The keys of sameLink's first record, reused from one call to the next: no array made per link. */
const keysOfFirst: string[] = [];
const KEPT_KEYS = 16;

/**
 * Whether two link records are equal and would be written alike: the same keys in the same order
 * (JSON.stringify writes them in it: a reset that takes the stored record writes the bytes it wrote
 * before), each the same value. The link's own fields compared one by one, any other key (a
 * contract FILE's `extra`) through sameJson: the generic sameJson was ~2 µs a link in a loaded
 * restore's profile; `node bench/same-link.mjs` gave 240-280 ns a link against 570-610 (loaded).
 */
export function sameLink(a: LinkRecord, b: LinkRecord): boolean {
  if (a === b) return true;
  // A snapshot file's member may be anything: `null` among them.
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a.id !== b.id || a.accountId !== b.accountId || a.domainId !== b.domainId || a.slug !== b.slug || a.destinationUrl !== b.destinationUrl) return false;
  if (a.title !== b.title || a.createdAt !== b.createdAt || a.clickCount !== b.clickCount || !sameIds(a.tagIds, b.tagIds)) return false;
  const same = sameKeys(a, b);
  // A record of many keys (a hand-made file's) leaves none of them held here.
  if (keysOfFirst.length > KEPT_KEYS) keysOfFirst.length = 0;
  return same;
}

/** The same keys in the same order, those other than the link's fields with the same values. */
function sameKeys(a: LinkRecord, b: LinkRecord): boolean {
  let keys = 0;
  for (const key in a) keysOfFirst[keys++] = key;
  let at = 0;
  for (const key in b) {
    if (at === keys || keysOfFirst[at++] !== key) return false;
    if (!isLinkField(key) && !sameJson((a as unknown as Record<string, unknown>)[key], (b as unknown as Record<string, unknown>)[key])) return false;
  }
  return at === keys;
}

/** A key sameLink compares field by field. A switch, not a Set: ~15 ns a link against ~45 in a micro-benchmark. */
function isLinkField(key: string): boolean {
  switch (key) {
    case 'id':
    case 'accountId':
    case 'domainId':
    case 'slug':
    case 'destinationUrl':
    case 'title':
    case 'createdAt':
    case 'clickCount':
    case 'tagIds':
      return true;
    default:
      return false;
  }
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether two JSON values (a stored record, one parsed) are equal: the same keys, each the same value. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return sameItems(a, b as unknown[]);
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key)) continue;
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
    keys += 1;
  }
  for (const key in right) if (Object.hasOwn(right, key)) keys -= 1;
  return keys === 0;
}

function sameItems(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (!sameJson(a[i], b[i])) return false;
  return true;
}
