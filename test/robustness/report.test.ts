// The robustness reports of a run set with known failures, built by hand: the JUnit counts, the text
// report's summary, its causes and the replay lines a person pastes into a shell.
import { describe, expect, it } from 'vitest';
import type { ClientRun } from '../../src/robustness/client-run.js';
import { junitReport, nothingTested, outputTail, textReport, type Finished } from '../../src/robustness/report.js';
import type { SeedRun } from '../../src/robustness/runner.js';
import type { Failure } from '../../src/robustness/shrink.js';
import { shellWords } from './shell-words.js';

const passed: ClientRun = { exitCode: 0, failed: false, reason: 'exit 0', output: 'ok\n', heldOutput: false, durationMs: 1_000 };
const failed: ClientRun = { exitCode: 1, failed: true, reason: 'exit 1', output: 'FAIL: createdAt\n', heldOutput: false, durationMs: 2_000 };
const seedRun = (seed: number, run: ClientRun): SeedRun => ({ seed, run, used: ['a:x', 'b:y'], requests: 3 });
const failure = (seed: number, minimal: string[], sameAs?: number): Failure => ({ seed, minimal, examples: {}, run: failed, reruns: 2, exhausted: false, ...(sameAs === undefined ? {} : { sameAs }) });

/** A command whose words need quoting: a space, a quote, a $ and a glob. */
const COMMAND = ['sh', '-c', `node client.cjs "it's" $HOME *.txt`];

/** Five runs: seeds 10 and 12 fail on the same dimension, 13 on two others, 11 and 14 pass. */
function finished(overrides: Partial<Finished> = {}): Finished {
  return {
    baseSeed: 10,
    descriptions: new Map(),
    runs: [seedRun(10, failed), seedRun(11, passed), seedRun(12, failed), seedRun(13, failed), seedRun(14, passed)],
    failures: [failure(10, ['a:x']), failure(12, ['a:x'], 10), failure(13, ['b:y', 'c:z'])],
    dimensionsSeen: ['a:x', 'b:y', 'c:z'],
    replay: { command: COMMAND, flags: ['--base-url', 'http://127.0.0.1:4010', '--api-key', 'k ey'] },
    ...overrides,
  };
}

describe('junitReport', () => {
  it('counts the tests and the failures of a run set with three failures in five runs', () => {
    const xml = junitReport(finished());
    expect(xml).toMatch(/<testsuites [^>]*tests="5" failures="3"/);
    expect(xml).toMatch(/<testsuite [^>]*tests="5" failures="3" errors="0"/);
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml.match(/<failure /g)).toHaveLength(3);
  });

  it('counts no failure for a run set that passed', () => {
    const xml = junitReport(finished({ runs: [seedRun(10, passed)], failures: [] }));
    expect(xml).toMatch(/<testsuite [^>]*tests="1" failures="0" errors="0"/);
  });
});

describe('textReport', () => {
  it('says "1 run", not "1 runs", and does not repeat the header the command printed first', () => {
    const text = textReport(finished({ runs: [seedRun(10, passed)], failures: [], dimensionsSeen: ['a:x'] }));
    expect(text).toBe('1 run, 1 dimension varied: every run passed');
    expect(text).not.toContain('shortlink-mock robustness:');
  });

  it('ends with one line per distinct cause, each with a replay line a shell takes as it is', () => {
    const lines = textReport(finished()).split('\n');
    expect(lines[0]).toBe('3 of 5 runs FAILED, 3 dimensions varied');
    const end = lines.slice(lines.indexOf('2 causes of failure:'));
    expect(end).toEqual([
      '2 causes of failure:',
      '- a:x (seeds 10, 12); replay:',
      `  shortlink-mock robustness --runs 1 --seed 10 --base-url http://127.0.0.1:4010 --api-key 'k ey' -- sh -c 'node client.cjs "it'\\''s" $HOME *.txt'`,
      '- b:y + c:z (seed 13); replay:',
      `  shortlink-mock robustness --runs 1 --seed 13 --base-url http://127.0.0.1:4010 --api-key 'k ey' -- sh -c 'node client.cjs "it'\\''s" $HOME *.txt'`,
    ]);
    const words = shellWords(end[2]!.trim());
    expect(words.slice(0, 10)).toEqual(['shortlink-mock', 'robustness', '--runs', '1', '--seed', '10', '--base-url', 'http://127.0.0.1:4010', '--api-key', 'k ey']);
    expect(words.slice(words.indexOf('--') + 1)).toEqual(COMMAND);
  });

  it('names a failure that did not come back when rerun as a cause of its own', () => {
    const text = textReport(finished({ failures: [failure(10, [])], replay: { command: ['npm', 'test'], flags: [] } }));
    expect(text.split('\n').slice(-3)).toEqual(['1 cause of failure:', '- a failure that did not come back when rerun (a flaky command?) (seed 10); replay:', '  shortlink-mock robustness --runs 1 --seed 10 -- npm test']);
  });
});

describe('nothingTested: a run set that met no varied answer is no pass', () => {
  const idle = (requests: number): Finished => finished({ runs: [{ ...seedRun(10, passed), used: [], requests }], failures: [], dimensionsSeen: [] });

  it.each([
    [0, 'k', "no run sent a request with the API key 'k' (--api-key), so no answer was varied; the command gets the key in MOCK_API_KEY"],
    [0, undefined, 'no run sent a request to the mock, so no answer was varied; the command gets its address in MOCK_URL'],
    [1, undefined, "the runs sent 1 request, and none got a varied answer, by the mock's journal (do they call operations the mock varies?)"],
  ])('%i requests, --api-key %s: says why in one line', (requests, apiKey, why) => {
    expect(nothingTested(idle(requests), apiKey)).toBe(why);
    expect(textReport(idle(requests))).toBe('1 run, 0 dimensions varied: no run failed, and none met a varied answer');
  });

  it('says nothing of a run set that varied a dimension, or that failed', () => {
    expect(nothingTested(finished({ failures: [] }), undefined)).toBeUndefined();
    expect(nothingTested(finished({ dimensionsSeen: [] }), undefined)).toBeUndefined();
  });
});

// A command that printed nothing (a binary that does not exist, a client killed at its timeout) ended
// the report with a bare '  | ' line (black-box sweep, stop 54).
describe('outputTail', () => {
  it('says the command printed nothing, rather than a bare prefix', () => {
    expect(outputTail('', '  | ')).toEqual(['  | (it printed nothing)']);
    expect(outputTail(' \n\n', '  | ')).toEqual(['  | (it printed nothing)']);
  });

  it("keeps a command's last lines behind the prefix, its trailing blank lines dropped", () => {
    expect(outputTail('one\ntwo\n\n', '    | ')).toEqual(['    | one', '    | two']);
  });
});
