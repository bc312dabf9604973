// Error-path coverage: per API key, which documented outcomes (operation × status × error code)
// its client has been answered with, and which it has never met. Counted apart from the bounded
// journal so old requests still count; bounded in keys so memory stays flat.
//
// Requests without a key or with a key that names no account are counted together, in one group:
// such a request is answered 401 before anything else (D14), so a column per unknown key would
// only list outcomes it can never reach, and masked unknown keys cannot be told apart anyway.
// Grouping them also keeps a client that sends random keys from using up MAX_TRACKED_KEYS.
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

export const MAX_TRACKED_KEYS = 1000;
/** The only answer a request without a valid key can get (D14). */
export const UNAUTHENTICATED_STATUS = 401;
const outcomeKey = (outcome: Outcome): string => `${outcome.operationId} ${outcome.status} ${outcome.code ?? ''}`;

interface Tracked {
  accountId: string;
  counts: Map<string, number>;
}

export class CoverageTracker {
  private readonly byKey = new Map<string, Tracked>();
  private readonly documented: Map<string, Outcome>;
  private unauthenticated = { counts: new Map<string, number>(), withoutKey: 0, unknownKey: 0 };

  constructor(documented: readonly Outcome[]) {
    this.documented = new Map(documented.map((outcome) => [outcomeKey(outcome), outcome]));
  }

  documentedOutcomes(): Outcome[] {
    return [...this.documented.values()];
  }

  /** Counts an answer; outcomes the contract does not document (mock errors) are not coverage. */
  record(apiKey: string | null, accountId: string | null, outcome: Outcome): void {
    const key = outcomeKey(outcome);
    if (!this.documented.has(key)) return;
    if (apiKey === null || accountId === null) {
      const group = this.unauthenticated;
      if (apiKey === null) group.withoutKey += 1;
      else group.unknownKey += 1;
      group.counts.set(key, (group.counts.get(key) ?? 0) + 1);
      return;
    }
    let tracked = this.byKey.get(apiKey);
    if (!tracked) {
      if (this.byKey.size >= MAX_TRACKED_KEYS) return;
      this.byKey.set(apiKey, (tracked = { accountId, counts: new Map() }));
    }
    tracked.counts.set(key, (tracked.counts.get(key) ?? 0) + 1);
  }

  /**
   * One entry per key that named an account (or just the given key, when it sent any request),
   * then, without a key filter, the group of keyless and unknown-key requests if there were any.
   */
  report(onlyKey?: string): KeyCoverage[] {
    if (onlyKey !== undefined) {
      const tracked = this.byKey.get(onlyKey);
      return tracked ? [this.keyReport(onlyKey, tracked)] : [];
    }
    const entries = [...this.byKey].map(([apiKey, tracked]) => this.keyReport(apiKey, tracked));
    const { counts, withoutKey, unknownKey } = this.unauthenticated;
    if (withoutKey + unknownKey === 0) return entries;
    const reachable = [...this.documented].filter(([, outcome]) => outcome.status === UNAUTHENTICATED_STATUS);
    return [
      ...entries,
      { apiKey: null, accountId: null, seen: this.seen(counts), missing: this.missing(reachable, counts), unauthenticated: { withoutKey, unknownKey } },
    ];
  }

  clear(): void {
    this.byKey.clear();
    this.unauthenticated = { counts: new Map(), withoutKey: 0, unknownKey: 0 };
  }

  private keyReport(apiKey: string, tracked: Tracked): KeyCoverage {
    return { apiKey: maskApiKey(apiKey), accountId: tracked.accountId, seen: this.seen(tracked.counts), missing: this.missing([...this.documented], tracked.counts) };
  }

  private seen(counts: Map<string, number>): (Outcome & { count: number })[] {
    return [...counts].map(([key, count]) => ({ ...(this.documented.get(key) as Outcome), count }));
  }

  private missing(candidates: [string, Outcome][], counts: Map<string, number>): Outcome[] {
    return candidates.filter(([key]) => !counts.has(key)).map(([, outcome]) => outcome);
  }
}
