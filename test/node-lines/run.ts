// `npm run test:node-lines`: the whole suite (`npm test`) again on each pinned Node.js line (22,
// 24), after the machine's own run in .ci/run. Each run has the pinned binary first on PATH, so npm,
// the build, Vitest and every child process the tests start run on it. One line per line at the end;
// the exit code is the first failure's. A failed run's failures are printed again at the end, since CI
// shows only the tail of this command's output.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { delimiter } from 'node:path';
import { FailureLines } from './failure-lines.js';
import { pinnedNode } from './fetch-node.js';
import { NODE_PINS, nodeCacheRoot } from './pins.js';

/** One run of the suite: CI has 90 minutes; a run is ~3-4 minutes here. */
const RUN_TIMEOUT_MS = 25 * 60_000;

const log = (line: string) => process.stderr.write(`${line}\n`);
const cacheRoot = nodeCacheRoot(process.env);
mkdirSync(cacheRoot, { recursive: true });
const only = process.argv.slice(2).map(Number);
const results: string[] = [];
let failed = 0;
for (const pin of NODE_PINS.filter((each) => only.length === 0 || only.includes(each.line))) {
  let bin: string;
  try {
    bin = pinnedNode(cacheRoot, pin, log);
  } catch (error) {
    results.push(`Node ${pin.version}: not run: ${(error as Error).message}`);
    failed ||= 2;
    continue;
  }
  log(`\nnode-lines: npm test on Node ${pin.version}`);
  const started = Date.now();
  const run = await npmTest(bin);
  const seconds = Math.round((Date.now() - started) / 1000);
  const outcome = run.timedOut ? `stopped after ${seconds} s (over ${RUN_TIMEOUT_MS / 60_000} min)` : run.status === 0 ? `passed in ${seconds} s` : `FAILED (exit ${run.status ?? run.signal}) in ${seconds} s`;
  results.push(`Node ${pin.version}: npm test ${outcome}`);
  if (run.timedOut || run.status !== 0) {
    failed ||= run.status || 1;
    results.push(...run.failures.kept.map((line) => `    ${line}`));
    if (run.failures.dropped > 0) results.push(`    … ${run.failures.dropped} more failure lines (above, in this run's output)`);
  }
}
log(`\nnode-lines:\n${results.map((line) => `  ${line}`).join('\n')}`);
process.exit(failed);

/** `npm test` with the pinned binary first on PATH, its output passed through as it comes and its failures kept. */
function npmTest(bin: string): Promise<{ status: number | null; signal: NodeJS.Signals | null; timedOut: boolean; failures: FailureLines }> {
  const failures = new FailureLines();
  const child = spawn('npm', ['test'], { stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}` } });
  for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]] as const) {
    from.setEncoding('utf8');
    from.on('data', (chunk: string) => {
      to.write(chunk);
      failures.add(chunk);
    });
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, RUN_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      failures.end();
      resolve({ status, signal, timedOut, failures });
    });
  });
}
