// The vocabulary of the suite: a check is data (which operation and status it covers, a title) plus
// a run function; its outcome is passed, failed (with the reason and the exchange that shows it)
// or not checked (with the reason the server under test gives us no way to check it).
import type { Exchange } from './client.js';
import type { CheckContext } from './context.js';

export { CheckFailure, NotChecked, Skipped } from './check-failures.js';

export type Outcome =
  | { status: 'passed'; note?: string }
  | { status: 'failed'; reason: string; exchange?: Exchange }
  | { status: 'not-checked'; reason: string; /** The contract FILE removes an operation the check calls. */ skipped?: true };

export interface Check {
  /** Stable and unique, e.g. 'createLink-400-missing-destinationUrl'. */
  id: string;
  /** The operation whose answer is judged; 'fuzz' and 'cleanup' group the rest. */
  operationId: string;
  /** The documented status this check makes the server answer; null when any documented one will do. */
  expectedStatus: number | null;
  title: string;
  /** A stateful rule of the API document rather than a single request. */
  rule?: boolean;
  /** Returns normally when passed (optionally with a note); throws CheckFailure or NotChecked. */
  run(ctx: CheckContext): Promise<string | void>;
}

export interface CheckResult {
  id: string;
  operationId: string;
  expectedStatus: number | null;
  title: string;
  rule: boolean;
  outcome: Outcome;
  ms: number;
}
