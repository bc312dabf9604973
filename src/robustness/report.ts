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
  /** Each dimension's one-line description, from the mock. */
  descriptions: ReadonlyMap<string, string>;
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
  for (const failure of failures) lines.push('', ...failureLines(failure, report.descriptions));
  return lines.join('\n');
}

function failureLines(failure: Failure, descriptions: ReadonlyMap<string, string>): string[] {
  const count = `${failure.minimal.length} ${failure.minimal.length === 1 ? 'dimension' : 'dimensions'}`;
  const how = failure.sameAs === undefined ? `shrunk in ${failure.reruns} ${failure.reruns === 1 ? 'rerun' : 'reruns'}` : `the same set as seed ${failure.sameAs}`;
  const lines = [`seed ${failure.seed}: the command fails with ${failure.minimal.length === 0 ? 'its dimensions, but not again when rerun with them (a flaky command?)' : `${count} varied`} (${how})${failure.exhausted ? '; the rerun budget ran out: perhaps not the smallest set' : ''}`];
  const only = failure.minimal.length > 0 ? `, or in your own run: PUT /__admin/variety ${JSON.stringify({ seed: failure.seed, only: failure.minimal })}` : '';
  const replay = [`  replay: robustness --runs 1 --seed ${failure.seed}${only}`];
  // A set already shown in full for an earlier seed: its names and how to replay it suffice.
  if (failure.sameAs !== undefined) return [...lines, `  ${failure.minimal.join(', ')}`, ...replay];
  for (const dimension of failure.minimal) {
    const description = descriptions.get(dimension);
    lines.push(`  ${dimension}${description === undefined ? '' : `: ${description}`}`);
    const example = failure.examples[dimension];
    if (example) lines.push(`    e.g. ${exampleLine(example, dimension)}`);
  }
  lines.push(...replay);
  lines.push(`  the command (${failure.run.reason}), last lines:`, ...lastLines(failure.run.output).map((line) => `    | ${line}`));
  return lines;
}

/** The answer, showing the field the dimension varies (`updateLink.title:longest` → its `title`) when the body has it. */
function exampleLine(example: Example, dimension: string): string {
  const field = /^[^.]+\.([^:]+):/.exec(dimension)?.[1];
  const body = example.body as Record<string, unknown> | null | undefined;
  const part = field !== undefined && typeof body === 'object' && body !== null && Object.hasOwn(body, field) ? `${field}: ${JSON.stringify(body[field])}` : bodyText(body);
  const shown = part.length > BODY_PREVIEW ? `${part.slice(0, BODY_PREVIEW)}… (${part.length} characters)` : part;
  return `${example.operationId ?? example.method} ${example.method} ${example.path} → ${example.status ?? 'no answer'}, ${shown}`;
}

function bodyText(body: unknown): string {
  return body === undefined || body === null ? 'no body' : JSON.stringify(body);
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
    const message = `fails with ${failure.minimal.join(', ') || 'a failure that did not come back (flaky?)'}`;
    return `${head}>\n      <failure message="${xmlAttr(message)}">${xmlText(failureLines(failure, report.descriptions).join('\n'))}</failure>\n    </testcase>`;
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
