// The report a person reads: grouped per operation and documented status, each check on a line
// (passed / FAILED / not checked), a failure followed by its reason and the offending request (as a
// curl command) and response. A documented status that no check reached is listed too, so the
// report shows what the run did NOT prove as plainly as what it did.
import type { CheckResult } from './check-types.js';
import { describeExchange } from './exchange-format.js';
import { groupResults } from './grouping.js';
import type { Report } from './runner.js';

export { toJUnit } from './junit.js';

const MARK = { passed: 'passed     ', failed: 'FAILED     ', 'not-checked': 'not checked' } as const;
const SKIPPED = 'skipped    ';
const INDENT = '      ';

/** notes: lines printed just before the summary, where a reader of a failed run looks first. */
export function formatReport(report: Report, notes: readonly string[] = []): string {
  const { counts, target } = report;
  const lines = [
    `Contract check of ${report.baseUrl} against openapi.yaml (${report.contract})`,
    `domain ${target.domain}${target.otherDomain ? `, other domain ${target.otherDomain}` : ''}, second account ${target.otherApiKey ? 'yes' : 'no'}` +
      `${target.otherAccountDomain ? ` (domain ${target.otherAccountDomain})` : ''}, account at its link limit ${target.limitedApiKey ? 'yes' : 'no'}` +
      `${target.limitedLinkId ? ` (link ${target.limitedLinkId})` : ''}, fuzz runs ${report.fuzzRuns}, seed ${report.seed}, run id ${report.runId}`,
    'API keys appear as $CONTRACT_API_KEY, $CONTRACT_OTHER_API_KEY and $CONTRACT_LIMITED_API_KEY in the curl commands below.',
  ];
  for (const group of groupResults(report)) {
    lines.push('', group.name);
    for (const { status, results } of group.statuses) {
      const label = status === null ? '' : `${status}  `;
      if (results.length === 0) {
        lines.push(`  ${label}not checked: no check of this suite reaches this status`);
        continue;
      }
      if (status !== null) lines.push(`  ${label}${summarise(results)}`);
      for (const result of results) lines.push(...formatResult(result, report));
    }
  }
  const verdict = counts.failed > 0 ? 'FAILED' : 'PASSED';
  const skipped = report.results.filter(({ outcome }) => outcome.status === 'not-checked' && outcome.skipped).length;
  lines.push(
    '',
    ...notes,
    `${verdict}: ${counts.checked} checked, ${counts.passed} passed, ${counts.failed} failed, ${counts.notChecked} not checked${skipped ? ` (${skipped} skipped: the contract removes an operation they call)` : ''} (${(report.ms / 1000).toFixed(1)} s)`,
  );
  if (counts.notChecked > 0) lines.push('"not checked": the suite had no way to reach that case on this server; the reason says why (often a flag to pass). It does not fail the run.');
  return lines.join('\n');
}

function summarise(results: CheckResult[]): string {
  const count = (status: string): number => results.filter((result) => result.outcome.status === status).length;
  const notChecked = count('not-checked');
  return `${count('passed') + count('failed')} checked: ${count('passed')} passed, ${count('failed')} failed${notChecked ? `; ${notChecked} not checked` : ''}`;
}

function formatResult(result: CheckResult, report: Report): string[] {
  const { outcome } = result;
  const title = `${result.rule ? 'rule: ' : ''}${result.title}`;
  const mark = outcome.status === 'not-checked' && outcome.skipped ? SKIPPED : MARK[outcome.status];
  const lines = [`    ${mark}  ${title}`];
  if (outcome.status === 'passed') {
    if (outcome.note) lines.push(`${' '.repeat(17)}${outcome.note}`);
    return lines;
  }
  lines.push(`${INDENT}reason:   ${outcome.reason}`);
  if (outcome.status === 'failed' && outcome.exchange) {
    lines.push(...describeExchange(outcome.exchange, report.secrets).map((line) => `${INDENT}${line}`));
  }
  return lines;
}
