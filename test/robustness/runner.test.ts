// The robustness runner end to end against a stand-in variety mock (fake-variety-mock.ts): real
// child processes as clients, the runner's flags, exit codes and reports.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runRobustnessCommand } from '../../src/commands/robustness.js';
import { CLIENT_NODE } from './client-node.js';
import { BRITTLE_CLIENT, GET_THING, startFakeMock, type FakeMock } from './fake-variety-mock.js';
import { shellWords } from './shell-words.js';

let mock: FakeMock;
let dir: string;
beforeAll(async () => {
  mock = await startFakeMock();
  dir = mkdtempSync(join(tmpdir(), 'robustness-'));
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => void (mock.calls.length = 0));

async function robustness(args: string[], clientArgs: string[]): Promise<{ code: number; out: string; err: string; progress: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const progress: string[] = [];
  const argv = ['--base-url', mock.url, ...args, '--', ...CLIENT_NODE, '--input-type=module', '-e', BRITTLE_CLIENT, ...clientArgs];
  const code = await runRobustnessCommand(argv, {}, { out: (text) => out.push(text), err: (text) => err.push(text), progress: (text) => progress.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n'), progress };
}

// Each case runs node a dozen times or more: 60 s, for a machine busy with the suite's other files.
describe('shortlink-mock robustness', { timeout: 60_000 }, () => {
  it('finds the seed a client breaks on and shrinks it to that one dimension, with an example answer (exit 1)', async () => {
    const json = join(dir, 'one.json');
    const junit = join(dir, 'reports', 'one.xml');
    const result = await robustness(['--runs', '8', '--seed', '7', '--json', json, '--junit', junit], ['getThing.b:edge']);
    expect(result.err).toBe('');
    expect(result.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { runs: number; failures: Array<{ seed: number; minimal: string[]; examples: Record<string, { status: number; body: unknown }> }>; dimensionsSeen: string[] };
    expect(report.runs).toBe(8);
    expect(report.failures.length).toBeGreaterThan(0);
    for (const failure of report.failures) {
      expect(failure.minimal).toEqual(['getThing.b:edge']);
      expect(failure.examples['getThing.b:edge']).toMatchObject({ status: 200, body: { varied: ['getThing.b:edge'] } });
    }
    expect(report.dimensionsSeen).toContain('getThing.b:edge');
    expect(result.out).toContain(`seed ${report.failures[0]?.seed}: the command fails with 1 dimension varied`);
    expect(result.out).toContain('broke on getThing.b:edge');
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(8);
    expect(xml.match(/<failure /g)).toHaveLength(report.failures.length);
    expect(result.progress.filter((line) => line.startsWith('run '))).toHaveLength(8);
  });

  it('prints its header once ("1 run"), and ends a failing report with its cause and a replay line to paste as it is', async () => {
    const result = await robustness(['--runs', '1', '--seed', '3'], ['getThing.b:edge']);
    expect(result.code).toBe(1);
    const lines = result.out.split('\n');
    expect(lines.filter((line) => line.startsWith('shortlink-mock robustness:'))).toEqual([`shortlink-mock robustness: 1 run under seed 3 against ${mock.url} (replay them with --seed 3)`]);
    expect(lines.find((line) => line.includes('FAILED'))).toMatch(/^1 of 1 run FAILED, \d+ dimensions varied$/);
    // The client's source spans lines: quoted, they stay one command for the shell.
    const causes = lines.slice(lines.lastIndexOf('1 cause of failure:'));
    expect(causes.slice(0, 2)).toEqual(['1 cause of failure:', '- getThing.b:edge (seed 3); replay:']);
    const replay = shellWords(causes.slice(2).join('\n').trim());
    expect(replay).toEqual(['shortlink-mock', 'robustness', '--runs', '1', '--seed', '3', '--base-url', mock.url, '--', ...CLIENT_NODE, '--input-type=module', '-e', BRITTLE_CLIENT, 'getThing.b:edge']);
  });

  it('shrinks a failure that needs two dimensions together to exactly those two', async () => {
    const json = join(dir, 'two.json');
    const result = await robustness(['--runs', '20', '--seed', '11', '--json', json], ['getThing.c:offset', 'getThing.f:charset']);
    expect(result.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { failures: Array<{ minimal: string[] }> };
    for (const failure of report.failures) expect([...failure.minimal].sort()).toEqual(['getThing.c:offset', 'getThing.f:charset']);
  });

  it('passes a tolerant client on every run (exit 0) and replays the same seeds under the same --seed', async () => {
    const first = await robustness(['--runs', '5', '--seed', '42'], []);
    const second = await robustness(['--runs', '5', '--seed', '42'], []);
    expect(first.code).toBe(0);
    expect(first.out).toContain('every run passed');
    const seeds = (result: typeof first): string[] => result.progress.filter((line) => line.startsWith('run ')).map((line) => line.split(':')[0] ?? '');
    expect(seeds(second)).toEqual(seeds(first));
    expect(seeds(first)[0]).toBe('run 1/5 seed 42');
  });

  it('blames no dimension when the command fails with variety off (exit 2), and runs no seed', async () => {
    const err: string[] = [];
    const code = await runRobustnessCommand(['--base-url', mock.url, '--', process.execPath, '-e', 'console.log("my own bug"); process.exit(3)'], {}, { out: () => {}, err: (text) => err.push(text) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain("the command fails with variety off (exit 3): the client's suite fails on its own, so no dimension is to blame");
    expect(err.join('\n')).toContain('| my own bug');
    // Only the start-up probe (can this mock switch variety on at all?), which varies nothing.
    expect(mock.calls.filter((call) => call === 'PUT /__admin/variety')).toHaveLength(1);
  });

  it.each([
    [['--runs', '0', '--', 'true'], '--runs must be a whole number from 1 to 1000'],
    [['--runs', '3'], "give the client's test command after --"],
    [['--seed', 'x', '--', 'true'], '--seed must be a whole number'],
    [['--colour', '--', 'true'], "unknown option '--colour'"],
  ])('refuses %j with exit 2', async (argv, message) => {
    const err: string[] = [];
    expect(await runRobustnessCommand(argv, {}, { out: () => {}, err: (text) => err.push(text) })).toBe(2);
    expect(err.join('\n')).toContain(message);
  });

  it('still finds the cause when the journal does not name it (shrinks over every dimension instead)', async () => {
    const hiding = await startFakeMock({ unjournaled: ['getThing.b:edge'] });
    const json = join(dir, 'hidden.json');
    const argv = ['--base-url', hiding.url, '--runs', '8', '--seed', '7', '--json', json, '--', ...CLIENT_NODE, '--input-type=module', '-e', BRITTLE_CLIENT, 'getThing.b:edge'];
    try {
      expect(await runRobustnessCommand(argv, {}, { out: () => {}, err: () => {} })).toBe(1);
    } finally {
      await hiding.close();
    }
    const report = JSON.parse(readFileSync(json, 'utf8')) as { failures: Array<{ minimal: string[] }> };
    for (const failure of report.failures) expect(failure.minimal).toEqual(['getThing.b:edge']);
  });

  it('blames no dimension for a failure that does not come back when rerun (a flaky command)', async () => {
    const marker = join(dir, 'flaky-once');
    // Passes with variety off, fails its first varied run only.
    const flaky = `${GET_THING} const fs = require('node:fs'); getThing().then((a) => { if (a.varied.length > 0 && !fs.existsSync(${JSON.stringify(marker)})) { fs.writeFileSync(${JSON.stringify(marker)}, ''); process.exit(1); } });`;
    const out: string[] = [];
    const json = join(dir, 'flaky.json');
    const argv = ['--base-url', mock.url, '--runs', '3', '--seed', '7', '--json', json, '--', ...CLIENT_NODE, '-e', flaky];
    expect(await runRobustnessCommand(argv, {}, { out: (text) => out.push(text), err: (text) => out.push(text) })).toBe(1);
    expect(out.join('\n')).toContain('not again when rerun with them (a flaky command?)');
    expect((JSON.parse(readFileSync(json, 'utf8')) as { failures: Array<{ minimal: string[] }> }).failures.map((failure) => failure.minimal)).toEqual([[]]);
  });

  it('says so (exit 2) when the mock at --base-url cannot be reached', async () => {
    const err: string[] = [];
    const code = await runRobustnessCommand(['--base-url', 'http://127.0.0.1:1', '--', 'true'], {}, { out: () => {}, err: (text) => err.push(text) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('cannot use the mock');
  });

  it('stops a run past --timeout with everything it started, and counts it as failed', async () => {
    const out: string[] = [];
    // Passes with variety off, hangs under any seed.
    const hang = `${GET_THING} const a = await getThing(); if (a.varied.length > 0) setInterval(() => {}, 1000);`;
    const argv = ['--base-url', mock.url, '--runs', '1', '--seed', '1', '--timeout', '1', '--', ...CLIENT_NODE, '--input-type=module', '-e', hang];
    expect(await runRobustnessCommand(argv, {}, { out: (text) => out.push(text), err: (text) => out.push(text) })).toBe(1);
    expect(out.join('\n')).toContain('timed out after 1 s');
  });
});
