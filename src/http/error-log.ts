// What an answered error leaves behind (the handler in errors.ts): the journal's verdict on whose
// fault it was, and for a 5xx a loud log line, one per few seconds while the data store is out of reach.
import { ApiError, ControlRefused } from '../core/errors.js';
import type { Verdict } from '../core/journal.js';
import { printable } from '../core/printable.js';
import { isStoreUnavailable, STORE_UNAVAILABLE } from '../core/link-store.js';
import { isResponseViolation, type ValidatorError } from './validator-findings.js';

/** While the data is out of reach every request fails alike: one line per few seconds says so, with a count. */
export const OUTAGE_LOG_EVERY_MS = 5_000;

export function outageLog(log: (line: string) => void, now: () => number = Date.now): (line: string) => void {
  let last = Number.NEGATIVE_INFINITY;
  let quiet = 0;
  return (line) => {
    if (now() - last < OUTAGE_LOG_EVERY_MS) {
      quiet += 1;
      return;
    }
    log(quiet ? `${line} (and ${quiet} more requests refused alike since the last line)` : line);
    last = now();
    quiet = 0;
  };
}

/**
 * For the journal: was the request at fault, the mock, or its data store? A rule of the API refusing
 * a valid request is 'ok'; the mock refusing its own control headers is 'mock-control'.
 */
export function verdictOf(thrown: unknown, error: ApiError): Verdict {
  if (thrown instanceof ControlRefused) return 'mock-control';
  if (isResponseViolation((thrown ?? {}) as ValidatorError)) return 'contract-violation';
  if (isStoreUnavailable(thrown)) return 'store-unavailable';
  if (error.status >= 500) return 'internal-error';
  return thrown instanceof ApiError ? 'ok' : 'invalid-request';
}

/**
 * A loud log entry: a contract violation or a bug must not scroll past unseen. A failure the mock
 * explains itself (an ApiError, such as a full disk refusing a change) is one line: its stack says
 * nothing more, and a full disk would print it for every request. Only the unexpected gets its stack.
 * Its headline is the journal's verdict in capitals: INTERNAL ERROR is a bug of the mock, STORE
 * UNAVAILABLE an outage of its data (Redis down), which the mock cannot help.
 */
export function describeInternal(request: string, error: ApiError, thrown: unknown): string {
  const violation = isResponseViolation((thrown ?? {}) as ValidatorError);
  const outage = isStoreUnavailable(thrown);
  // The headline names the outage: the description's own 'store unavailable: ' would say it twice.
  const what = violation ? 'CONTRACT VIOLATION' : outage ? 'STORE UNAVAILABLE' : 'INTERNAL ERROR';
  const description = outage ? error.errorDescription.replace(STORE_UNAVAILABLE, '') : error.errorDescription;
  // One line whatever the request or the error names: its stack, below, is the mock's own.
  const headline = printable(`${what} answering ${request}: ${description}`);
  const explained = violation || outage || thrown instanceof ApiError || !(thrown instanceof Error);
  return explained ? headline : `${headline}\n${thrown.stack?.split('\n').slice(1).join('\n') ?? ''}`;
}
