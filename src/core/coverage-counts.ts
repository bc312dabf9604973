// The in-memory CoverageCountStore (src/core/traffic-state.ts): maps of counters, bounded in keys
// so memory stays flat. Counting is a map update; nothing here waits.
import type { CoverageCaller, CoverageCountStore, CoverageCounts, KeyCounts } from './traffic-state.js';

/** Keys counted apart at most; later keys are not counted (the group of unknown keys always is). */
export const MAX_TRACKED_KEYS = 1000;

const increment = (counts: Map<string, number>, key: string): void => {
  counts.set(key, (counts.get(key) ?? 0) + 1);
};

export class MemoryCoverageCounts implements CoverageCountStore {
  private readonly byKey = new Map<string, KeyCounts & { counts: Map<string, number> }>();
  private group = { counts: new Map<string, number>(), withoutKey: 0, unknownKey: 0 };

  count(caller: CoverageCaller, outcome: string): void {
    if ('group' in caller) {
      this.group[caller.group] += 1;
      increment(this.group.counts, outcome);
      return;
    }
    let tracked = this.byKey.get(caller.apiKey);
    if (!tracked) {
      if (this.byKey.size >= MAX_TRACKED_KEYS) return;
      this.byKey.set(caller.apiKey, (tracked = { apiKey: caller.apiKey, accountId: caller.accountId, counts: new Map() }));
    }
    increment(tracked.counts, outcome);
  }

  read(onlyKey?: string): CoverageCounts {
    if (onlyKey === undefined) return { keys: [...this.byKey.values()], group: this.group };
    const tracked = this.byKey.get(onlyKey);
    return { keys: tracked ? [tracked] : [], group: { counts: new Map(), withoutKey: 0, unknownKey: 0 } };
  }

  clear(): void {
    this.byKey.clear();
    this.group = { counts: new Map(), withoutKey: 0, unknownKey: 0 };
  }
}
