// `npm run test:node-lines`: the whole suite (`npm test`) again on each pinned Node.js line (22,
// 24), after the machine's own run in .ci/run. Each run has the pinned binary first on PATH, so npm,
// the build, Vitest and every child process the tests start run on it. One line per line at the end;
// the exit code is the first failure's.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { delimiter } from 'node:path';
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
  const run = spawnSync('npm', ['test'], { stdio: 'inherit', timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL', env: { ...process.env, PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}` } });
  const seconds = Math.round((Date.now() - started) / 1000);
  const outcome = run.error ? `stopped after ${seconds} s (${run.error.message})` : run.status === 0 ? `passed in ${seconds} s` : `FAILED (exit ${run.status ?? run.signal}) in ${seconds} s`;
  results.push(`Node ${pin.version}: npm test ${outcome}`);
  if (run.error || run.status !== 0) failed ||= run.status || 1;
}
log(`\nnode-lines:\n${results.map((line) => `  ${line}`).join('\n')}`);
process.exit(failed);
