// Named snapshots of the whole state, as the admin API uses them: the port that the snapshot
// stores implement (in memory or as files: src/store/file/snapshot-store.ts; on Redis:
// src/store/redis/redis-snapshots.ts).
import type { MockData } from './model.js';

export interface SnapshotInfo {
  name: string;
  savedAt: string;
  links: number;
}

export interface SnapshotStore {
  save(name: string, data: MockData): Promise<SnapshotInfo>;
  load(name: string): Promise<MockData | undefined>;
  list(): Promise<SnapshotInfo[]>;
  /** False when there was no such snapshot. */
  delete(name: string): Promise<boolean>;
}
