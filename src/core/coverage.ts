// Error-path coverage: per API key, which documented outcomes (operation × status × error code)
// its client has been answered with, and which it has never met. Counted apart from the bounded
// journal so old requests still count; bounded in keys so memory stays flat.
//
// Requests without a key or with a key that names no account are counted together, in one group:
// such a request is answered 401 before anything else (D14), so a column per unknown key would
// only list outcomes it can never reach, and masked unknown keys cannot be told apart anyway.
// Grouping them also keeps a client that sends random keys from using up MAX_TRACKED_KEYS.
import type { CoverageCountStore, CoverageCounts, KeyCounts } from './traffic-state.js';
import { andThen, type Awaitable } from './awaitable.js';
import { MemoryCoverageCounts } from './coverage-counts.js';
import { maskApiKey } from './journal.js';

export interface Outcome {
  operationId: string;
  status: number;
  code: string | null;
}

export interface KeyCoverage {
  apiKey: string | null;
  accountId: string | null;
  seen: (Outcome & { count: number })[];
  /** For the group of keyless and unknown-key requests: only the outcomes they can reach. */
  missing: Outcome[];
  /** Only on the group (apiKey null): how many requests it holds, by kind. */
  unauthenticated?: { withoutKey: number; unknownKey: number };
}

export { MAX_TRACKED_KEYS } from './coverage-counts.js';
/** The only answer a request without a valid key can get (D14). */
export const UNAUTHENTICATED_STATUS = 401;
/** The outcome as one string: the field its count is kept under in every CoverageCountStore. */
export const outcomeKey = (outcome: Outcome): string => `${outcome.operationId} ${outcome.status} ${outcome.code ?? ''}`;

/** The documented outcomes and the report of who met which; the counting is the store's. */
export class CoverageTracker {
  private readonly documented: Map<string, Outcome>;

  constructor(
    documented: readonly Outcome[],
    private readonly counts: CoverageCountStore = new MemoryCoverageCounts(),
  ) {
    this.documented = new Map(documented.map((outcome) => [outcomeKey(outcome), outcome]));
  }

  documentedOutcomes(): Outcome[] {
    return [...this.documented.values()];
  }

  /** Counts an answer; outcomes the contract does not document (mock errors) are not coverage. */
  record(apiKey: string | null, accountId: string | null, outcome: Outcome): void {
    const key = outcomeKey(outcome);
    if (!this.documented.has(key)) return;
    if (apiKey === null) this.counts.count({ group: 'withoutKey' }, key);
    else if (accountId === null) this.counts.count({ group: 'unknownKey' }, key);
    else this.counts.count({ apiKey, accountId }, key);
  }

  /**
   * One entry per key that named an account (or just the given key, when it sent any request),
   * then, without a key filter, the group of keyless and unknown-key requests if there were any.
   */
  report(onlyKey?: string): Awaitable<KeyCoverage[]> {
    return andThen(this.counts.read(onlyKey), (counts) => this.reportOf(counts, onlyKey));
  }

  clear(): Awaitable<void> {
    return this.counts.clear();
  }

  private reportOf(counts: CoverageCounts, onlyKey: string | undefined): KeyCoverage[] {
    const entries = counts.keys.filter((key) => onlyKey === undefined || key.apiKey === onlyKey).map((key) => this.keyReport(key));
    const { withoutKey, unknownKey } = counts.group;
    if (onlyKey !== undefined || withoutKey + unknownKey === 0) return entries;
    const reachable = [...this.documented].filter(([, outcome]) => outcome.status === UNAUTHENTICATED_STATUS);
    const group = counts.group.counts;
    return [...entries, { apiKey: null, accountId: null, seen: this.seen(group), missing: this.missing(reachable, group), unauthenticated: { withoutKey, unknownKey } }];
  }

  private keyReport({ apiKey, accountId, counts }: KeyCounts): KeyCoverage {
    return { apiKey: maskApiKey(apiKey), accountId, seen: this.seen(counts), missing: this.missing([...this.documented], counts) };
  }

  /** Only outcomes still documented: a count kept under another contract's outcome is not shown. */
  private seen(counts: ReadonlyMap<string, number>): (Outcome & { count: number })[] {
    return [...counts].flatMap(([key, count]) => {
      const outcome = this.documented.get(key);
      return outcome ? [{ ...outcome, count }] : [];
    });
  }

  private missing(candidates: [string, Outcome][], counts: ReadonlyMap<string, number>): Outcome[] {
    return candidates.filter(([key]) => !counts.has(key)).map(([, outcome]) => outcome);
  }
}
