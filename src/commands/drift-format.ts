// The drift report of GET /__admin/violations as plain text (grouped by operation and status, each
// distinct violation with its count, times and example exchange) and as JUnit XML for CI: one
// failing testcase per distinct violation, or one passing testcase when there is none, so a CI
// page shows the drift whichever way it went. Keys in examples arrive masked by the mock.
import { xmlAttr, xmlText } from '../contract/xml-escape.js';
import { printable } from '../core/printable.js';
import { MAX_DISTINCT_VIOLATIONS, type DistinctViolation, type ViolationGroup, type ViolationReport, type ViolationSide } from '../core/violations.js';

/** Characters of a body shown on one line at most: the example is evidence, not a dump. */
const BODY_PREVIEW = 300;

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/** "createLink (POST), answered 201" or "GET outside the contract, no answer". */
export function groupTitle(group: ViolationGroup): string {
  const where = group.operationId === null ? `${group.method} outside the contract` : `${group.operationId} (${group.method})`;
  return `${where}, ${group.status === null ? 'no answer' : `answered ${group.status}`}`;
}

function body(value: unknown): string {
  const text = value === null || value === undefined ? 'none' : JSON.stringify(value);
  return text.length > BODY_PREVIEW ? `${text.slice(0, BODY_PREVIEW)}… (${text.length} characters)` : text;
}

/** The example exchange, one line per fact. */
export function exampleLines(violation: DistinctViolation): string[] {
  const { example } = violation;
  return [
    `example: ${example.method} ${example.path} at ${example.time}, key ${example.apiKey ?? 'none'}, answered ${example.status ?? 'nothing'}`,
    ...(example.detail === undefined ? [] : [`detail: ${example.detail}`]),
    `request body: ${body(example.requestBody)}`,
    `response body: ${body(example.responseBody)}`,
  ];
}

function droppedLine(report: ViolationReport): string {
  return `${plural(report.dropped, 'sighting', 'sightings')} of further distinct violations not kept: the report holds ${MAX_DISTINCT_VIOLATIONS} of each side at most; clear it (DELETE /__admin/violations) and run again to see them.`;
}

/** "no contract violations seen", or with one side only "no response-side contract violations seen". */
const noneSeen = (side: ViolationSide): string => `no ${side === 'both' ? '' : `${side}-side `}contract violations seen`;

export function formatDrift(report: ViolationReport, baseUrl: string, side: ViolationSide = 'both'): string {
  if (report.distinct === 0 && report.dropped === 0) return `N${noneSeen(side).slice(1)} by the mock at ${baseUrl}.`;
  const which = side === 'both' ? '' : `, ${side} side`;
  const lines = [`Contract drift seen by the mock at ${baseUrl}${which}: ${plural(report.distinct, 'distinct violation', 'distinct violations')}`];
  for (const group of report.groups) {
    lines.push('', groupTitle(group));
    for (const violation of group.violations) {
      lines.push(`  ${violation.side}: ${violation.rule}`);
      lines.push(`    ${plural(violation.count, 'exchange', 'exchanges')}, first ${violation.firstSeen}, last ${violation.lastSeen}`);
      lines.push(...exampleLines(violation).map((line) => `    ${line}`));
    }
  }
  if (report.dropped > 0) lines.push('', droppedLine(report));
  // Rules, paths and bodies come from clients and upstreams: no control character reaches the terminal.
  return lines.map(printable).join('\n');
}

function testCase(classname: string, name: string, failure?: { message: string; details: string }): string {
  const open = `    <testcase classname="${xmlAttr(classname)}" name="${xmlAttr(name)}" time="0.000"`;
  if (!failure) return `${open}/>`;
  return `${open}>\n      <failure message="${xmlAttr(failure.message)}" type="ContractViolation">${xmlText(failure.details)}</failure>\n    </testcase>`;
}

/** The report as JUnit XML; the side it covers is in the suites' name (when not both) and a property. */
export function driftJUnit(report: ViolationReport, baseUrl: string, side: ViolationSide = 'both'): string {
  const cases = report.groups.flatMap((group) =>
    group.violations.map((violation) =>
      testCase(`drift.${group.operationId ?? 'outside-contract'}.${group.method}.${group.status ?? 'no-answer'}`, `${violation.side}: ${violation.rule}`, {
        message: `${violation.side}: ${violation.rule}`,
        details: [groupTitle(group), `${plural(violation.count, 'exchange', 'exchanges')}, first ${violation.firstSeen}, last ${violation.lastSeen}`, ...exampleLines(violation)].join('\n'),
      }),
    ),
  );
  if (report.dropped > 0) cases.push(testCase('drift', 'violations not kept', { message: droppedLine(report), details: droppedLine(report) }));
  if (cases.length === 0) cases.push(testCase('drift', noneSeen(side)));
  const failures = cases.length - (report.distinct === 0 && report.dropped === 0 ? 1 : 0);
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="0.000"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(`shortlink-mock drift: ${baseUrl}${side === 'both' ? '' : ` (side: ${side})`}`)}" ${counts}>`,
    `  <testsuite name="drift" ${counts}>`,
    `    <properties><property name="side" value="${side}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
