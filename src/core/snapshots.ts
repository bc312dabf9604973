// Named snapshots of the whole state, as the admin API uses them: the port that the snapshot
// stores implement (in memory or as files: src/store/file/snapshot-store.ts; on Redis:
// src/store/redis/redis-snapshots.ts).
import type { LinkRecord, MockData } from './model.js';
import type { LinkTable } from './model.js';

export interface SnapshotInfo {
  name: string;
  savedAt: string;
  links: number;
}

/**
 * The whole data as it was at one moment, lent while a snapshot is saved (LinkStore.lendSnapshot):
 * nothing is copied but the few accounts and tags. Each link read from `links` is as it was at the
 * moment only in the turn of the event loop it is read in (it may be the stored record itself):
 * it is to be serialised then, never kept.
 */
export interface DataAtMoment {
  head: Omit<MockData, 'links'>;
  links: Iterable<LinkRecord>;
  linkCount: number;
}

/**
 * The stored records a restore may take in place of a snapshot's equal ones, and a reset in place of
 * its seed's (LinkStore.readReusing): at 1,000,000 links a restore of a snapshot whose links are
 * mostly unchanged otherwise keeps a million new records alive, whose copying and marking held the
 * event loop for seconds (issue 40).
 */
export interface KnownLinks {
  /** Called once, with the object the snapshot's (or seed's) links are put in (a change made meanwhile is kept out of it). */
  into(links: LinkTable): void;
  /** The stored record under `id` when it equals `link` (the snapshot's just read, or the seed's just drawn), else `link`. */
  take(id: string, link: LinkRecord): LinkRecord;
}

export interface SnapshotStore {
  save(name: string, data: MockData): Promise<SnapshotInfo>;
  /** Saves the data lent (DataAtMoment) as it reads it; stores that keep data in memory have none. */
  saveFrom?(name: string, data: DataAtMoment): Promise<SnapshotInfo>;
  /**
   * The snapshot's data, a copy of its own: the caller may change it. With `known`, a link may be
   * the stored record it equals (KnownLinks), which the caller may then only put in place of the data.
   */
  load(name: string, known?: KnownLinks): Promise<MockData | undefined>;
  list(): Promise<SnapshotInfo[]>;
  /** False when there was no such snapshot. */
  delete(name: string): Promise<boolean>;
}
