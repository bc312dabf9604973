// `npm run bench:compare` end to end, on real builds: a test build with a planted slowdown (every
// request busy-waits 0.5 ms more) must be reported "slower" with exit 1, and two processes of one
// build "no difference found" with exit 0. Here, not in npm test: the verdicts are read off real
// throughput, which other test files running at the same time would skew (this suite runs one
// file at a time). The statistics themselves are table-tested in test/bench/compare-stats.test.ts.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMPARE = join(ROOT, 'bench', 'compare.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'bench-compare-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PLANTED_SLOWDOWN = `// A planted slowdown for the bench:compare test: 0.5 ms of busy CPU before each request.
import http from 'node:http';
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event === 'request') {
    const until = performance.now() + 0.5;
    while (performance.now() < until);
  }
  return emit.call(this, event, ...args);
};
`;

/** A copy of this checkout's build whose CLI first loads the planted slowdown; the rest is linked. */
function slowBuild(): string {
  const dir = join(scratch, 'slow-build');
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  for (const name of ['node_modules', 'package.json', 'fixtures', 'scenarios', 'openapi.yaml', 'src']) symlinkSync(join(ROOT, name), join(dir, name));
  writeFileSync(join(dir, 'planted-slowdown.mjs'), PLANTED_SLOWDOWN);
  const cli = join(dir, 'dist', 'src', 'cli.js');
  const [shebang, ...rest] = readFileSync(cli, 'utf8').split('\n');
  writeFileSync(cli, [shebang, "import '../../planted-slowdown.mjs';", ...rest].join('\n'));
  return dir;
}

interface Outcome {
  code: number | null;
  output: string;
  report: { results: { verdict: { word: string; failsGate: boolean }; problems: string[] }[] };
}

function compare(ref: string, candidate: string, name: string, workload = 'create'): Promise<Outcome> {
  const json = join(scratch, `${name}.json`);
  const args = [COMPARE, ref, '--candidate', candidate, '--workload', workload, '--rounds', '4', '--duration', '2', '--warmup', '1', '--json', json];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, report: JSON.parse(readFileSync(json, 'utf8')) });
    });
  });
}

test('a planted slowdown is "slower" and exits 1', async () => {
  const { code, output, report } = await compare(`dir:${ROOT}`, `dir:${slowBuild()}`, 'slow');
  const [result] = report.results;
  expect(result?.problems, output).toEqual([]);
  expect(result?.verdict, output).toEqual({ word: 'slower', failsGate: true });
  expect(output).toMatch(/create: slower \(beyond the threshold: FAIL\)/);
  expect(code, output).toBe(1);
}, 110_000);

// delete runs a fixed number of requests, which autocannon ends at its next one-second tick, and
// its duration says so: read off it, 2,000 deletes that took 0.2 s or 0.9 s both came out at about
// 1,980 a second, on both sides alike. The round is timed by its answers instead. A server that
// answers at once takes 2,000 deletes in well under a second: the rate must say so.
test('a delete round is timed by its answers, not by autocannon\'s one-second tick', async () => {
  let created = 0;
  const server = createServer((req, res) => {
    req.resume();
    if (req.method === 'POST') {
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `lnk_${created++}` }));
    } else res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const { measureRound } = (await import(pathToFileURL(join(ROOT, 'bench', 'lib', 'compare-workloads.mjs')).href)) as {
      measureRound: (name: string, server: object, settings: object, memory: object) => Promise<{ reqPerSec: number; problems: string[] }>;
    };
    const round = await measureRound('delete', { kind: 'baseline', url: `http://127.0.0.1:${port}` }, { durationSec: 1, connections: 10 }, {});
    expect(round.problems).toEqual([]);
    expect(created).toBe(2000);
    expect(round.reqPerSec).toBeGreaterThan(2000);
  } finally {
    server.close();
  }
}, 60_000);

// A 95% interval excludes the truth in about one run in twenty, so one build against itself is
// called "faster" or "slower" now and then (more often when another process loads the machine in
// the middle of a round): a second run is asked for then, and both calling a difference
// (about 1 in 400 by chance) fails. The gate itself (exit 1) must never trip on the same build.
test('two processes of one build give "no difference found" and exit 0', async () => {
  let run = await compare(`dir:${ROOT}`, `dir:${ROOT}`, 'same');
  expect(run.code, run.output).toBe(0);
  if (run.report.results[0]?.verdict.word !== 'no difference found') run = await compare(`dir:${ROOT}`, `dir:${ROOT}`, 'same-again');
  expect(run.report.results[0]?.verdict, run.output).toEqual({ word: 'no difference found', failsGate: false });
  expect(run.code, run.output).toBe(0);
}, 220_000);

test('an unknown ref or workload is a usage error, exit 2, naming it', async () => {
  const child = spawn(process.execPath, [COMPARE, 'main', '--workload', 'read'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code).toBe(2);
  expect(output).toMatch(/--workload: unknown 'read'/);
});
