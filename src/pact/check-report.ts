// The result of `pact check` in words (one line per interaction: ok or FAIL, then its problems, each
// naming the side, the field and the engine that found it) and as JUnit XML for CI (one testcase
// per interaction). Both say once, at the top, when swagger-mock-validator was not there to judge.
import { xmlAttr, xmlText } from '../contract/xml-escape.js';
import type { InteractionResult, PactCheck } from './check.js';
import type { Finding } from './finding.js';

type Checked = Extract<PactCheck, { kind: 'checked' }>;

export function formatPactReport(check: Checked, pactFile: string, contractFile: string): string {
  const failed = check.interactions.filter((result) => !result.passed).length;
  const total = check.interactions.length;
  const lines = [
    `pact check: ${check.consumer} → ${check.provider} (${pactFile}, Pact V${check.version}, ${total} interaction${total === 1 ? '' : 's'})`,
    `against ${check.contractTitle} (${contractFile})`,
    ...(check.engineMissing === undefined ? [] : [`note: ${engineNote(check.engineMissing)}`]),
    '',
    ...check.interactions.flatMap((result) => [
      `  ${result.passed ? 'ok  ' : 'FAIL'}  ${title(result)}`,
      ...result.findings.map(findingLine),
    ]),
    ...(check.unplaced.length ? ['  (the pact as a whole)', ...check.unplaced.map(findingLine)] : []),
    '',
    failed === 0 ? (total === 1 ? 'The one interaction keeps the contract.' : `All ${total} interactions keep the contract.`) : `${failed} of ${total} ${total === 1 ? 'interaction breaks' : 'interactions break'} the contract.`,
  ];
  return lines.join('\n');
}

/** What judged the responses in the engine's place, and what nothing checked. */
function engineNote(why: string): string {
  return `${why}: the mock's own validators judged the response statuses, content types and bodies; not checked without it: response headers, the request's Content-Type and Accept, query parameters and headers the contract does not define`;
}

function title(result: InteractionResult): string {
  return `${result.description} (${result.exchange}${result.operationId ? `, ${result.operationId}` : ''})`;
}

function findingLine(finding: Finding): string {
  return `          ${finding.severity === 'warning' ? 'note: ' : ''}${findingText(finding)}`;
}

function findingText(finding: Finding): string {
  return `${finding.side}${finding.field ? ` ${finding.field}` : ''}: ${finding.message}  [${finding.engine}]`;
}

export function pactJUnit(check: Checked, pactFile: string): string {
  const failures = check.interactions.filter((result) => !result.passed).length;
  const suite = `pact check: ${check.consumer} → ${check.provider} (${pactFile})`;
  const cases = check.interactions.map((result) => {
    const open = `    <testcase classname="${xmlAttr(`pact.${check.consumer}`)}" name="${xmlAttr(title(result))}" time="0"`;
    if (result.passed) return `${open}/>`;
    const errors = result.findings.filter((finding) => finding.severity === 'error').map(findingText);
    return `${open}>\n      <failure message="${xmlAttr(errors[0] ?? '')}" type="ContractMismatch">${xmlText(errors.join('\n'))}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(suite)}" tests="${check.interactions.length}" failures="${failures}" errors="0">`,
    `  <testsuite name="${xmlAttr(suite)}" tests="${check.interactions.length}" failures="${failures}" errors="0" skipped="0">`,
    ...(check.engineMissing === undefined ? [] : [`    <properties>\n      <property name="note" value="${xmlAttr(engineNote(check.engineMissing))}"/>\n    </properties>`]),
    ...cases,
    ...(check.engineMissing === undefined ? [] : [`    <system-out>${xmlText(`note: ${engineNote(check.engineMissing)}`)}</system-out>`]),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** A pact file that could not be checked, for CI: one testcase in error, its message the reason. */
export function refusalJUnit(pactFile: string, reason: string): string {
  const suite = `pact check: ${pactFile}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(suite)}" tests="1" failures="0" errors="1">`,
    `  <testsuite name="${xmlAttr(suite)}" tests="1" failures="0" errors="1" skipped="0">`,
    `    <testcase classname="pact" name="${xmlAttr(`read ${pactFile}`)}" time="0">`,
    `      <error message="${xmlAttr(reason)}" type="PactRefused"/>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
