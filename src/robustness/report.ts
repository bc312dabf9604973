// The robustness run as a person reads it, as JSON (--json) and as JUnit XML (--junit, one
// testcase per seed). The report names each failing seed and its smallest set of dimensions, with
// one example answer each and how to replay it.
import { xmlAttr, xmlText } from '../contract/xml-escape.js';
import { counted } from '../core/counted.js';
import { LEFT_HOLDING_OUTPUT, PIPE_DRAIN_MS, type ClientRun } from './client-run.js';
import { replayLine, type Replay } from './replay.js';
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
  /** How to replay one seed: the command and the flags that chose the mock. */
  replay: Replay;
  /** The run with variety off, when it is to be reported on (it left a process holding its output). */
  baseline?: ClientRun;
  /** Under --contract: the changes of NEXT met by a passing run and blamed by no failure. */
  survived?: string[];
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
  const survived = report.survived === undefined ? {} : { survived: report.survived };
  return `${JSON.stringify({ runs: report.runs.length, seed: report.baseSeed, failures, dimensionsSeen: report.dimensionsSeen, ...survived }, null, 2)}\n`;
}

/**
 * The report after the runs: the command printed the header (seed, runs, mock) before them, so the
 * report starts with the verdict and ends with each distinct cause and the line that replays it.
 */
export function textReport(report: Finished): string {
  const { runs, failures } = report;
  const varied = `${counted(report.dimensionsSeen.length, 'dimension')} varied`;
  // Passing runs that met no varied answer are no pass (nothingTested says why).
  const passed = report.dimensionsSeen.length > 0 ? 'every run passed' : 'no run failed, and none met a varied answer';
  const head = [failures.length === 0 ? `${counted(runs.length, 'run')}, ${varied}: ${passed}` : `${failures.length} of ${counted(runs.length, 'run')} FAILED, ${varied}`];
  const held = [...(report.baseline ? [report.baseline] : []), ...runs.map(({ run }) => run)].filter((run) => run.heldOutput).length;
  if (held > 0) head.push(`note: ${counted(held, 'run')} ${LEFT_HOLDING_OUTPUT} ${PIPE_DRAIN_MS / 1000} s after the command ended; such a process is not stopped (end it yourself)`);
  if (report.survived !== undefined) head.push(survivedLine(report.survived));
  if (failures.length === 0) return head.join('\n');
  const lines = [...head];
  for (const failure of failures) lines.push('', ...failureLines(failure, report));
  return [...lines, '', ...causeLines(report)].join('\n');
}

/** Under --contract: the changes of NEXT the command survived, by name. */
function survivedLine(survived: readonly string[]): string {
  return survived.length === 0 ? 'survived: none of the next contract\'s changes (in a passing run)' : `survived ${counted(survived.length, 'change')} of the next contract: ${survived.join(', ')}`;
}

/**
 * Why a run set that failed nowhere tested nothing, when no request of any run got a varied answer
 * (the journal's word); undefined when something was varied or a run failed. A green report then
 * would only say that the command never met the mock's variety.
 */
export function nothingTested(report: Finished, apiKey: string | undefined): string | undefined {
  if (report.failures.length > 0 || report.dimensionsSeen.length > 0) return undefined;
  const requests = report.runs.reduce((sum, run) => sum + run.requests, 0);
  if (requests > 0) return `the runs sent ${counted(requests, 'request')}, and none got a varied answer, by the mock's journal (do they call operations the mock varies?)`;
  if (apiKey !== undefined) return `no run sent a request with the API key '${apiKey}' (--api-key), so no answer was varied; the command gets the key in MOCK_API_KEY`;
  return 'no run sent a request to the mock, so no answer was varied; the command gets its address in MOCK_URL';
}

/** One line per distinct smallest set, with its seeds, and the line that replays its first seed. */
function causeLines(report: Finished): string[] {
  const causes = new Map<string, number[]>();
  for (const failure of report.failures) {
    const cause = failure.minimal.length === 0 ? FLAKY : failure.minimal.join(' + ');
    causes.set(cause, [...(causes.get(cause) ?? []), failure.seed]);
  }
  const lines = [`${counted(causes.size, 'cause')} of failure:`];
  for (const [cause, seeds] of causes) lines.push(`- ${cause} (${seeds.length === 1 ? 'seed' : 'seeds'} ${seeds.join(', ')}); replay:`, `  ${replayLine(seeds[0]!, report.replay)}`);
  return lines;
}

const FLAKY = 'a failure that did not come back when rerun (a flaky command?)';

function failureLines(failure: Failure, report: Finished): string[] {
  const { descriptions } = report;
  const count = `${failure.minimal.length} ${failure.minimal.length === 1 ? 'dimension' : 'dimensions'}`;
  const how = failure.sameAs === undefined ? `shrunk in ${counted(failure.reruns, 'rerun')}` : `the same set as seed ${failure.sameAs}`;
  const lines = [`seed ${failure.seed}: the command fails with ${failure.minimal.length === 0 ? 'its dimensions, but not again when rerun with them (a flaky command?)' : `${count} varied`} (${how})${failure.exhausted ? '; the rerun budget ran out: perhaps not the smallest set' : ''}`];
  const replay = [`  replay: ${replayLine(failure.seed, report.replay)}`];
  if (failure.minimal.length > 0) replay.push(`  or in your own run: PUT /__admin/variety ${JSON.stringify({ seed: failure.seed, only: failure.minimal })}`);
  // A set already shown in full for an earlier seed: its names and how to replay it suffice.
  if (failure.sameAs !== undefined) return [...lines, `  ${failure.minimal.join(', ')}`, ...replay];
  for (const dimension of failure.minimal) {
    const description = descriptions.get(dimension);
    lines.push(`  ${dimension}${description === undefined ? '' : `: ${description}`}`);
    const example = failure.examples[dimension];
    if (example) lines.push(`    e.g. ${exampleLine(example, dimension)}`);
  }
  lines.push(...replay);
  lines.push(`  the command (${failure.run.reason}), last lines:`, ...outputTail(failure.run.output, '    | '));
  return lines;
}

/** The answer, showing the field the dimension varies (`updateLink.title:longest` → its `title`) when the body has it. */
function exampleLine(example: Example, dimension: string): string {
  // `updateLink.title:longest`, or a next contract's `next.createLink./expiresAt:present`.
  const field = /^(?:next\.)?[^.]+\.\/?([^:]+):/.exec(dimension)?.[1];
  const body = example.body as Record<string, unknown> | null | undefined;
  const part = field !== undefined && typeof body === 'object' && body !== null && Object.hasOwn(body, field) ? `${field}: ${JSON.stringify(body[field])}` : bodyText(body);
  const shown = part.length > BODY_PREVIEW ? `${part.slice(0, BODY_PREVIEW)}… (${part.length} characters)` : part;
  return `${example.operationId ?? example.method} ${example.method} ${example.path} → ${example.status ?? 'no answer'}, ${shown}`;
}

function bodyText(body: unknown): string {
  return body === undefined || body === null ? 'no body' : JSON.stringify(body);
}

function lastLines(output: string): string[] {
  const kept = output.trimEnd();
  return kept === '' ? [] : kept.split('\n').slice(-OUTPUT_LINES);
}

/** The command's last lines, each behind `prefix`; one line saying so when it printed nothing (not a bare prefix). */
export function outputTail(output: string, prefix: string): string[] {
  const lines = lastLines(output);
  return lines.length === 0 ? [`${prefix}(it printed nothing)`] : lines.map((line) => `${prefix}${line}`);
}

export function junitReport(report: Finished): string {
  const bySeed = new Map(report.failures.map((failure) => [failure.seed, failure]));
  const cases = report.runs.map(({ seed, run }) => {
    const failure = bySeed.get(seed);
    const head = `    <testcase classname="robustness" name="seed ${seed}" time="${(run.durationMs / 1000).toFixed(3)}"`;
    if (!failure) return `${head}/>`;
    const message = `fails with ${failure.minimal.join(', ') || 'a failure that did not come back (flaky?)'}`;
    return `${head}>\n      <failure message="${xmlAttr(message)}">${xmlText(failureLines(failure, report).join('\n'))}</failure>\n    </testcase>`;
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
