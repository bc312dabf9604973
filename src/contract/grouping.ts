// Results in the order a reader expects: each operation of openapi.yaml with every documented
// status (reached by a check or not), then the groups that are not operations (fuzz, cleanup).
import type { CheckResult } from './check-types.js';
import type { Report } from './runner.js';

export interface Group {
  name: string;
  /** status null: the group is not an operation (fuzz, cleanup), so it has no statuses. */
  statuses: { status: number | null; results: CheckResult[] }[];
}

/** Operations in contract order with every documented status (reached or not), then fuzz and cleanup. */
export function groupResults(report: Report): Group[] {
  const groups: Group[] = report.operations.map((operation) => ({
    name: operation.operationId,
    statuses: operation.statuses.map((status) => ({ status, results: report.results.filter((result) => result.operationId === operation.operationId && result.expectedStatus === status) })),
  }));
  const known = new Set(groups.flatMap((group) => group.statuses.flatMap((entry) => entry.results)));
  const rest = report.results.filter((result) => !known.has(result));
  for (const name of [...new Set(rest.map((result) => result.operationId))]) {
    groups.push({ name, statuses: [{ status: null, results: rest.filter((result) => result.operationId === name) }] });
  }
  return groups;
}
