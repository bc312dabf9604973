// The robustness run as a person reads it, as JSON (--json) and as JUnit XML (--junit, one
// testcase per seed). The report names each failing seed and its smallest set of dimensions, with
// one example answer each and how to replay it.
import { xmlAttr, xmlText } from '../contract/xml-escape.js';
import type { SeedRun } from './runner.js';
import type { Example, Failure } from './shrink.js';

/** Characters of an example body shown in the text report: evidence, not a dump. */
const BODY_PREVIEW = 300;
/** Lines of the client's output shown under a failure. */
const OUTPUT_LINES = 15;

export interface Finished {
  baseSeed: number;
  runs: SeedRun[];
  failures: Failure[];
  dimensionsSeen: string[];
}

export function jsonReport(report: Finished): string {
  const failures = report.failures.map((failure) => ({
    seed: failure.seed,
    minimal: failure.minimal,
    examples: failure.examples,
    reruns: failure.reruns,
    ...(failure.exhausted ? { exhausted: true } : {}),
    ...(failure.sameAs === undefined ? {} : { sameAs: failure.sameAs }),
  }));
  return `${JSON.stringify({ runs: report.runs.length, seed: report.baseSeed, failures, dimensionsSeen: report.dimensionsSeen }, null, 2)}\n`;
}

export function textReport(report: Finished): string {
  const { runs, failures, baseSeed } = report;
  const head = `shortlink-mock robustness: ${runs.length} runs under seed ${baseSeed} (replay them with --seed ${baseSeed}), ${report.dimensionsSeen.length} dimensions varied`;
  if (failures.length === 0) return `${head}\nevery run passed`;
  const lines = [head, `${failures.length} of ${runs.length} runs FAILED`];
  for (const failure of failures) lines.push('', ...failureLines(failure));
  return lines.join('\n');
}

function failureLines(failure: Failure): string[] {
  const count = `${failure.minimal.length} ${failure.minimal.length === 1 ? 'dimension' : 'dimensions'}`;
  const how = failure.sameAs === undefined ? `${failure.reruns} reruns to shrink` : `the same set as seed ${failure.sameAs}`;
  const lines = [`seed ${failure.seed}: the command fails with ${failure.minimal.length === 0 ? 'no dimension varied (a flaky command?)' : count} (${how})${failure.exhausted ? '; the rerun budget ran out: perhaps not the smallest set' : ''}`];
  for (const dimension of failure.minimal) {
    lines.push(`  ${dimension}`);
    const example = failure.examples[dimension];
    if (example) lines.push(`    e.g. ${exampleLine(example)}`);
  }
  if (failure.minimal.length > 0) lines.push(`  replay: PUT /__admin/variety ${JSON.stringify({ seed: failure.seed, only: failure.minimal })}`);
  if (failure.sameAs === undefined) lines.push(`  the command (${failure.run.reason}), last lines:`, ...lastLines(failure.run.output).map((line) => `    | ${line}`));
  return lines;
}

function exampleLine(example: Example): string {
  const body = example.body === undefined || example.body === null ? 'no body' : JSON.stringify(example.body);
  const shown = body.length > BODY_PREVIEW ? `${body.slice(0, BODY_PREVIEW)}… (${body.length} characters)` : body;
  return `${example.operationId ?? example.method} ${example.method} ${example.path} → ${example.status ?? 'no answer'} ${shown}`;
}

export function lastLines(output: string): string[] {
  return output.trimEnd().split('\n').slice(-OUTPUT_LINES);
}

export function junitReport(report: Finished): string {
  const bySeed = new Map(report.failures.map((failure) => [failure.seed, failure]));
  const cases = report.runs.map(({ seed, run }) => {
    const failure = bySeed.get(seed);
    const head = `    <testcase classname="robustness" name="seed ${seed}" time="${(run.durationMs / 1000).toFixed(3)}"`;
    if (!failure) return `${head}/>`;
    const message = `fails with ${failure.minimal.join(', ') || 'no dimension varied'}`;
    return `${head}>\n      <failure message="${xmlAttr(message)}">${xmlText(failureLines(failure).join('\n'))}</failure>\n    </testcase>`;
  });
  const total = (report.runs.reduce((sum, { run }) => sum + run.durationMs, 0) / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="shortlink-mock robustness" tests="${report.runs.length}" failures="${report.failures.length}" time="${total}">`,
    `  <testsuite name="robustness (seed ${report.baseSeed})" tests="${report.runs.length}" failures="${report.failures.length}" errors="0" time="${total}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
