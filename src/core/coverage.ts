// Error-path coverage: per API key, which documented outcomes (operation × status × error code)
// its client has been answered with, and which it has never met. Counted apart from the bounded
// journal so old requests still count; bounded in keys so memory stays flat.
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
  missing: Outcome[];
}

export const MAX_TRACKED_KEYS = 1000;
const NO_KEY = '\u0000none';
const outcomeKey = (outcome: Outcome): string => `${outcome.operationId} ${outcome.status} ${outcome.code ?? ''}`;

interface Tracked {
  accountId: string | null;
  counts: Map<string, number>;
}

export class CoverageTracker {
  private readonly byKey = new Map<string, Tracked>();
  private readonly documented: Map<string, Outcome>;

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
    const id = apiKey ?? NO_KEY;
    let tracked = this.byKey.get(id);
    if (!tracked) {
      if (this.byKey.size >= MAX_TRACKED_KEYS) return;
      this.byKey.set(id, (tracked = { accountId, counts: new Map() }));
    }
    tracked.accountId ??= accountId;
    tracked.counts.set(key, (tracked.counts.get(key) ?? 0) + 1);
  }

  /** One entry per key seen (or just the given key), with what it has and has not met. */
  report(onlyKey?: string): KeyCoverage[] {
    const keys = onlyKey === undefined ? [...this.byKey.keys()] : [onlyKey];
    return keys.map((id) => {
      const tracked = this.byKey.get(id);
      const seen = [...(tracked?.counts ?? new Map<string, number>())].map(([key, count]) => ({ ...(this.documented.get(key) as Outcome), count }));
      const missing = [...this.documented].filter(([key]) => !tracked?.counts.has(key)).map(([, outcome]) => outcome);
      return { apiKey: id === NO_KEY ? null : maskApiKey(id), accountId: tracked?.accountId ?? null, seen, missing };
    });
  }

  clear(): void {
    this.byKey.clear();
  }
}
