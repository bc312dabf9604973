// npm run bench:start: how long the CLI takes before it is of use, cold (a fresh process each time):
// `--version` and `--help` to exit, and a start on a prepared db of BENCH_START_LINKS links (default
// 1,000; no seeding) to its "listening on" line (with the CPU it used until then, which other work
// on the machine inflates less than the wall time) and to its first API answer (a POST /links that
// the validator refuses: the validator prepares the contract before its first request). Node's own
// start (`node -e 0`) is measured alongside as the floor. BENCH_START_RUNS runs (default 15), the
// median reported. BENCH_START_OTHER=<a git ref, or the dir of another build> measures that build
// too, alternating run by run with this one, for a before/after on a noisy machine (a ref is built
// as bench:compare builds it, bench/lib/ref-build.mjs, cached by commit).
// Writes bench/start-result.json and, when bench/results.json exists, re-renders RESULTS.md.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineInfo } from './lib/machine.mjs';
import { buildRef } from './lib/ref-build.mjs';
import { ROOT, startServer, stopChildrenOnSignals, stopServer, track } from './lib/processes.mjs';
import { startSettings } from './lib/settings.mjs';
import { copyStore, prepareStore } from './lib/stores.mjs';
import { startSection } from './lib/start-report.mjs';
import { RESULTS_JSON, renderReport, START_JSON } from './report.mjs';

const EXIT_LIMIT_MS = 30_000;
const log = (line) => console.error(`[start ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** Every measurement of the runs, per build: {builds: [{label, version: [ms…], …}], node: [ms…]}. */
export async function measureStarts(settings, tmp) {
  const builds = [{ label: buildLabel(ROOT), root: ROOT }, ...(settings.other ? [otherBuild(settings.other)] : [])];
  log(`preparing a db of ${settings.links} links`);
  const dir = join(tmp, 'cold-start');
  mkdirSync(dir, { recursive: true });
  const store = await prepareStore(dir, settings.links);
  const samples = builds.map(({ label }) => ({ label, version: [], help: [], listening: [], listeningCpu: [], firstAnswer: [], firstAnswerCpu: [] }));
  const node = [];
  for (let run = 1; run <= settings.runs; run += 1) {
    node.push(await timeToExit(['-e', '0']));
    // Alternate which build goes first, so that neither always meets the machine just after the other.
    const order = run % 2 ? builds.map((_, i) => i) : builds.map((_, i) => i).reverse();
    for (const i of order) await measureOnce(builds[i].root, store, `run-${run}-${i}`, samples[i]);
    log(`run ${run}/${settings.runs}: ${samples.map((s) => `${s.label}: --version ${ms(s.version.at(-1))}, listening ${ms(s.listening.at(-1))} (CPU ${ms(s.listeningCpu.at(-1))}), first answer ${ms(s.firstAnswer.at(-1))} (CPU ${ms(s.firstAnswerCpu.at(-1))})`).join(' | ')}`);
  }
  return { date: new Date().toISOString(), machine: machineInfo(tmp), settings: { runs: settings.runs, links: settings.links, ...(settings.other ? { other: settings.other } : {}) }, node, builds: samples };
}

async function measureOnce(root, store, name, sample) {
  const cli = join(root, 'dist', 'src', 'cli.js');
  sample.version.push(await timeToExit([cli, '--version']));
  sample.help.push(await timeToExit([cli, '--help']));
  const copy = copyStore(store, name);
  let server;
  try {
    server = await startServer({ command: process.execPath, args: [cli, '--port', '0', '--host', '127.0.0.1', '--quiet', '--db', copy.db, '--fixtures', store.fixtures] });
    sample.listening.push(server.listeningMs);
    sample.listeningCpu.push(cpuMs(server.pid));
    sample.firstAnswer.push(await firstAnswerMs(server));
    sample.firstAnswerCpu.push(cpuMs(server.pid));
  } finally {
    await stopServer(server);
    copy.remove();
  }
}

/** A create the contract refuses (no body fields): through authentication and the validator, nothing written. */
async function firstAnswerMs(server) {
  const response = await fetch(`${server.url}/links`, { method: 'POST', headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' }, body: '{}' });
  await response.arrayBuffer();
  if (response.status !== 400) throw new Error(`POST /links {} answered ${response.status}, not 400`);
  return performance.now() - server.started;
}

/** CPU time (user + system) a process has used so far, from /proc (Linux; NaN elsewhere). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
const CLOCK_TICKS = 100; // USER_HZ, 100 on every Linux Node supports

/** Wall time from spawn to exit of `node …args`; a non-zero exit is an error. */
function timeToExit(args) {
  const started = performance.now();
  const child = track(spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' }));
  return new Promise((resolveTime, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_LIMIT_MS);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolveTime(performance.now() - started);
      else reject(new Error(`node ${args.join(' ')} exited with ${code ?? signal}`));
    });
  });
}

/** BENCH_START_OTHER: a directory holding a build, or a git ref built (or found in the cache) now. */
function otherBuild(other) {
  if (existsSync(join(other, 'dist', 'src', 'cli.js'))) return { label: buildLabel(other), root: resolve(other) };
  const { dir, commit } = buildRef(other, log);
  return { label: `${other} (${commit.slice(0, 10)})`, root: dir };
}

/** The build's commit, marked when its tree has uncommitted changes. */
function buildLabel(root) {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty ? `${commit} + changes` : commit;
  } catch {
    return root;
  }
}

const ms = (value) => `${Math.round(value)} ms`;

async function main() {
  const settings = startSettings();
  const tmp = mkdtempSync(join(tmpdir(), 'shortlink-start-'));
  stopChildrenOnSignals(() => rmSync(tmp, { recursive: true, force: true }));
  let result;
  try {
    result = await measureStarts(settings, tmp);
    writeFileSync(START_JSON, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(startSection(result));
  if (existsSync(RESULTS_JSON)) console.log(renderReport().split('\n').slice(-1)[0]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`bench:start failed: ${error.stack ?? error}`);
    process.exitCode = 1;
  });
}
