// The same report as JUnit XML for CI systems: one testsuite per operation (and fuzz, cleanup),
// one testcase per check, <failure> with the reason and the offending exchange, <skipped> with the
// reason a check was not checked. Text is escaped, and characters XML 1.0 cannot carry at all (a
// fuzzed body may hold any) are replaced, so the file always parses (src/contract/xml-escape.ts).
import type { CheckResult } from './check-types.js';
import { describeExchange } from './exchange-format.js';
import { groupResults } from './grouping.js';
import type { Report } from './runner.js';
import { xmlAttr as attr, xmlText as text } from './xml-escape.js';

export function toJUnit(report: Report): string {
  const suites = groupResults(report).map((group) => {
    const results = group.statuses.flatMap((entry) => entry.results);
    const failures = results.filter((result) => result.outcome.status === 'failed').length;
    const skipped = results.filter((result) => result.outcome.status === 'not-checked').length;
    const seconds = results.reduce((sum, result) => sum + result.ms, 0) / 1000;
    const cases = results.map((result) => testCase(result, group.name, report));
    return `  <testsuite name="${attr(group.name)}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const { counts } = report;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(`shortlink-mock contract: ${report.baseUrl}`)}" tests="${report.results.length}" failures="${counts.failed}" errors="0" skipped="${counts.notChecked}" time="${(report.ms / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function testCase(result: CheckResult, group: string, report: Report): string {
  const name = `${result.expectedStatus ?? ''} ${result.rule ? 'rule: ' : ''}${result.title}`.trim();
  const open = `    <testcase classname="${attr(`contract.${group}`)}" name="${attr(name)}" time="${(result.ms / 1000).toFixed(3)}"`;
  const { outcome } = result;
  if (outcome.status === 'passed') return `${open}/>`;
  if (outcome.status === 'not-checked') return `${open}>\n      <skipped message="${attr(outcome.reason)}"/>\n    </testcase>`;
  const details = [outcome.reason, ...(outcome.exchange ? describeExchange(outcome.exchange, report.secrets) : [])].join('\n');
  return `${open}>\n      <failure message="${attr(outcome.reason)}" type="ContractViolation">${text(details)}</failure>\n    </testcase>`;
}
