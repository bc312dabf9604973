// Slugs → record numbers, per domain, off the JS heap (issue 40): what SlugTable/SlugIndex/slotSlug
// (slug-table.ts) give MockState, answering the link's record number (-1 for none) instead of the
// link. Each domain's slugs are a ByteKeyIndex (64 sub-tables, each grown by itself); the slugs'
// bytes are kept in a LinkArena of their own (a record a slug), shared by the domains, so that the
// index does not depend on where a link's record keeps its slug.
//
// Clients choose slugs: with a hash everyone can compute, keys chosen to collide would all land in
// one sub-table and one probe run (each lookup then O(n)). The hash's seed is drawn once per index
// (so per process: a store holds one) from the OS's randomness; tests pass their own.
import { randomBytes } from 'node:crypto';
import { ByteKeyIndex, type KeySource } from './byte-key-index.js';
import { Int32Column } from './column.js';
import { KeyBytes, keyRefusal } from './key-bytes.js';
import { LinkArena } from './link-arena.js';

/** A 32-bit hash seed from the OS's randomness. */
export function drawHashSeed(): number {
  return randomBytes(4).readInt32LE(0);
}

/** The slugs' bytes by entry number, and the link record each entry answers. */
class SlugEntries implements KeySource {
  readonly bytes = new LinkArena();
  readonly recordOf = new Int32Column(-1);

  sameKey(entry: number, key: Uint8Array, length: number): boolean {
    return this.bytes.sameHead(entry, key, length);
  }
}

/** One domain's slugs → record numbers: SlugTable's get/has/put/delete/size. */
export class PackedSlugs {
  private readonly index: ByteKeyIndex;

  constructor(
    private readonly entries: SlugEntries,
    private readonly keys: KeyBytes,
    seed: number,
  ) {
    this.index = new ByteKeyIndex(entries, seed);
  }

  get size(): number {
    return this.index.size;
  }

  /** The record number under the slug, or -1. */
  get(slug: string): number {
    const entry = this.index.find(slug);
    return entry < 0 ? -1 : this.entries.recordOf.get(entry);
  }

  has(slug: string): boolean {
    return this.index.find(slug) >= 0;
  }

  /**
   * Puts record number `record` under `slug`; true when the slug was free (false: the record it
   * answered is replaced). Throws, nothing changed, on a slug with no stored form (past
   * MAX_KEY_BYTES as UTF-8, or a lone surrogate) or a record that is not a record number.
   */
  put(slug: string, record: number): boolean {
    if (!(record >= 0 && Number.isInteger(record) && record <= 0x7fffffff)) throw new RangeError(`PackedSlugs.put: record ${record} is not a record number`);
    const length = this.keys.of(slug);
    if (length < 0) throw keyRefusal(slug);
    const key = this.keys.bytes.subarray(0, length);
    const there = this.index.find(key);
    if (there >= 0) {
      this.entries.recordOf.set(there, record);
      return false;
    }
    const entry = this.entries.bytes.add(key, Number.NaN, length);
    this.entries.recordOf.set(entry, record);
    this.index.insert(key, entry);
    return true;
  }

  /** Takes the slug out; false when it was not there. */
  delete(slug: string): boolean {
    const entry = this.index.delete(slug);
    if (entry < 0) return false;
    this.entries.bytes.remove(entry);
    this.entries.recordOf.set(entry, -1);
    return true;
  }

  /** Live slugs per sub-table (tests: the spread a seed gives). */
  spread(): number[] {
    return this.index.sizes();
  }
}

/** Domain id → its slugs (slug-table.ts's SlugIndex), one seed and one store of slug bytes for all. */
export class PackedSlugIndex {
  private readonly domains = new Map<string, PackedSlugs>();
  private readonly entries = new SlugEntries();
  private readonly keys = new KeyBytes();

  constructor(readonly seed = drawHashSeed()) {}

  /** The domain's slugs, or undefined when none was ever put. */
  domain(domainId: string): PackedSlugs | undefined {
    return this.domains.get(domainId);
  }

  /** The record number under (domain, slug), or -1. */
  get(domainId: string, slug: string): number {
    return this.domains.get(domainId)?.get(slug) ?? -1;
  }

  has(domainId: string, slug: string): boolean {
    return this.domains.get(domainId)?.has(slug) ?? false;
  }

  /** slotSlug: puts the record under its slug in its domain; false when a record held it (replaced). */
  put(domainId: string, slug: string, record: number): boolean {
    let slugs = this.domains.get(domainId);
    if (!slugs) this.domains.set(domainId, (slugs = new PackedSlugs(this.entries, this.keys, this.seed)));
    return slugs.put(slug, record);
  }

  delete(domainId: string, slug: string): boolean {
    return this.domains.get(domainId)?.delete(slug) ?? false;
  }

  /** Slugs held, all domains together. */
  get size(): number {
    return this.entries.bytes.size;
  }

  /** One bounded step of the slug bytes' compaction (LinkArena.compactStep). */
  compactStep(budget?: number): number {
    return this.entries.bytes.compactStep(budget);
  }
}
