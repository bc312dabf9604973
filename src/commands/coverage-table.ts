// The coverage report of GET /__admin/coverage as plain text: a table of documented outcomes by API
// key, then per key the outcomes it has never met. Requests without a valid key are one column
// (apiKey null) that can only ever meet the 401s, so its other cells say "-", not "never".
import { UNAUTHENTICATED_STATUS, type KeyCoverage, type Outcome } from '../core/coverage.js';

export interface CoverageReport {
  documented: Outcome[];
  accounts: KeyCoverage[];
}

const GROUP_LABEL = 'no or unknown key';
const MIN_COLUMN = 8;
const GAP = 2;

const label = (outcome: Outcome): string => `${outcome.operationId} ${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}`;
const same = (a: Outcome, b: Outcome): boolean => a.operationId === b.operationId && a.status === b.status && a.code === b.code;
const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
const columnName = (entry: KeyCoverage): string => entry.apiKey ?? GROUP_LABEL;

function cell(entry: KeyCoverage, outcome: Outcome): string {
  const seen = entry.seen.find((candidate) => same(candidate, outcome));
  if (seen) return `×${seen.count}`;
  return entry.apiKey === null && outcome.status !== UNAUTHENTICATED_STATUS ? '-' : 'never';
}

function summary(entry: KeyCoverage, documented: number): string {
  const missing = entry.missing.map(label);
  if (entry.apiKey !== null) {
    return `${entry.apiKey}: ${missing.length === 0 ? 'every documented outcome met' : `never met ${missing.length} of ${documented}: ${missing.join(', ')}`}`;
  }
  const { withoutKey = 0, unknownKey = 0 } = entry.unauthenticated ?? {};
  const reachable = entry.missing.length + entry.seen.filter((outcome) => outcome.status === UNAUTHENTICATED_STATUS).length;
  const counts = `${plural(withoutKey, 'request', 'requests')} without a key, ${plural(unknownKey, 'request', 'requests')} with a key that names no account`;
  const met = missing.length === 0 ? `every ${UNAUTHENTICATED_STATUS} met` : `never met ${missing.length} of the ${reachable} ${UNAUTHENTICATED_STATUS}s they can get: ${missing.join(', ')}`;
  return `${GROUP_LABEL} (${counts}): ${met}`;
}

/** `account`: the key the report was asked for (--account), for the message when it has none. */
export function formatCoverage(report: CoverageReport, account?: string): string {
  if (report.accounts.length === 0) {
    return account === undefined
      ? 'No API requests seen yet: nothing is covered.'
      : `No API requests with the key '${account}' seen yet. (Requests with a key that names no account are counted together: run without --account to see them.)`;
  }
  const names = report.accounts.map(columnName);
  const width = Math.max(...report.documented.map((outcome) => label(outcome).length), 'outcome'.length) + GAP;
  const columns = names.map((name) => Math.max(name.length, MIN_COLUMN) + GAP);
  const row = (first: string, cells: string[]): string => first.padEnd(width) + cells.map((text, i) => text.padEnd(columns[i] ?? MIN_COLUMN)).join('').trimEnd();
  const legend = `×N: answered N times; never: not yet${names.includes(GROUP_LABEL) ? `; -: cannot happen, a request without a valid key is always answered ${UNAUTHENTICATED_STATUS}` : ''}`;
  return [
    `Documented outcomes met by each API key (${legend})`,
    '',
    row('outcome', names),
    ...report.documented.map((outcome) => row(label(outcome), report.accounts.map((entry) => cell(entry, outcome)))),
    '',
    ...report.accounts.map((entry) => summary(entry, report.documented.length)),
  ].join('\n');
}
