// Facts that never change within a generation once they exist, kept in this process so the hot
// path reads them without a round trip: domains (by name and by id), the default domain, tags (by
// id, and by account and name). Nothing edits or removes one of these until the data is replaced,
// which makes a new generation (redis-generations.ts), and the cache follows the generation the
// store last saw: its first call after a reset through any instance learns of it (redis-runner.ts)
// and every fact is read again. Only what was found is kept: a name not there yet may be made by
// any instance at any moment. A create still checks, atomically, that what it names is there.

/** Entries per kind of fact at most; past it that kind starts over (a mock with very many tag names). */
const MAX_ENTRIES = 50_000;

export class FactCache {
  private generation = '';
  private readonly kinds = new Map<string, Map<string, unknown>>();

  /**
   * The fact found earlier in `generation`, or `load`ed now: kept when found and when the
   * generation did not change while it was read.
   */
  async get<T>(generation: () => string, kind: string, key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const current = generation();
    if (current !== this.generation) this.startOver(current);
    const known = this.kinds.get(kind)?.get(key) as T | undefined;
    if (known !== undefined) return known;
    const found = await load();
    if (found !== undefined && generation() === current && this.generation === current) this.keep(kind, key, found);
    return found;
  }

  /** A fact this instance made in `generation` (a new tag): kept if that is the generation cached. */
  put(generation: string, kind: string, key: string, fact: unknown): void {
    if (generation === this.generation) this.keep(kind, key, fact);
  }

  private keep(kind: string, key: string, fact: unknown): void {
    let facts = this.kinds.get(kind);
    if (!facts) this.kinds.set(kind, (facts = new Map()));
    if (facts.size >= MAX_ENTRIES) facts.clear();
    facts.set(key, fact);
  }

  private startOver(generation: string): void {
    this.generation = generation;
    this.kinds.clear();
  }
}
