// npm run bench:instructions -- <ref | express | ceiling | floor | dir:/path> [--workload create|update|read] [--requests N] [--warmup N] [--clients N] [--candidate SPEC]
// Instructions per request of two builds, counted by valgrind's callgrind: a measure that the
// machine's load does not move, for when bench:compare's throughput drifts by ±20% (a shared VM,
// other work running). Both sides run at the same time, each in a process of its own under
// callgrind, node with --single-threaded (no concurrent compiler or GC threads, whose share would
// depend on timing); the count covers only the measured requests (callgrind_control zeroes it after
// the warm-up and dumps it after them). What it leaves out: the kernel (system calls, the loopback
// network), which both builds share, and the real machine's caches and branch predictors. Work that
// runs by the clock (timers, V8's idle-time tasks) adds a little per second: two runs at different
// times of the same build differed by up to 15%, two sides run together by under 1%. So read the
// ratio of one run, never counts from separate runs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveSide, WORKING_TREE } from './lib/compare-sides.mjs';
import { baselineCommand } from './lib/processes.mjs';

const USAGE = 'usage: npm run bench:instructions -- <git-ref | express | ceiling | floor | dir:/path> [--workload create|update|read] [--requests N] [--warmup N] [--clients N] [--candidate SPEC]';
const KEY = { 'x-api-key': 'demo-key', 'content-type': 'application/json' };
const CREATE = JSON.stringify({ destinationUrl: 'https://example.com/bench', domain: 'short.test', tags: [{ name: 'bench' }] });
const UPDATE = JSON.stringify({ destinationUrl: 'https://example.com/bench-updated', tags: [] });
/**
 * Clients at once (--clients): 8 overlap requests as a real load does, few enough for valgrind's
 * one thread. How many requests one turn of the event loop or one group commit takes then depends
 * on how fast each side runs, so on a busy machine, where the two sides get unequal shares of the
 * CPU, the counts drift apart; with 1 client every request runs alone, in the same steps on both
 * sides, whatever the load: use it to compare code on a machine that is not idle.
 */
const DEFAULT_CLIENTS = '8';
/** Bound of one side's whole run (valgrind runs node 20–50 times slower). */
const SIDE_LIMIT_MS = 20 * 60_000;

function settingsFrom(argv) {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
    workload: { type: 'string', default: 'create' },
    requests: { type: 'string', default: '1000' },
    warmup: { type: 'string', default: '3000' },
    clients: { type: 'string', default: DEFAULT_CLIENTS },
    candidate: { type: 'string', default: WORKING_TREE },
  } });
  if (positionals.length !== 1 || !['create', 'update', 'read'].includes(values.workload)) throw new Error(USAGE);
  const count = (name, max) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`--${name} must be a whole number from 1 to ${max}, got '${values[name]}'`);
    return value;
  };
  return { ref: positionals[0], candidate: values.candidate, workload: values.workload, requests: count('requests', 100_000), warmup: count('warmup', 100_000), clients: count('clients', 64) };
}

function requireValgrind() {
  try {
    execFileSync('callgrind_control', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('bench:instructions needs valgrind (callgrind): apt-get install -y valgrind');
  }
}

/** The command that serves a side, under callgrind with its output in `dir`. */
function underCallgrind(side, dir) {
  // The baseline without bench:run's event-loop-delay preload (it reports over an IPC channel we do not open).
  const served = side.kind === 'express'
    ? baselineCommand({ appServer: side.appServer, validator: side.validator }).args.filter((arg, i, args) => arg !== '--import' && args[i - 1] !== '--import')
    : [join(side.dir, 'dist', 'src', 'cli.js'), '--port', '0', '--host', '127.0.0.1', '--quiet', '--db', join(dir, 'db.json'), '--reset'];
  // --predictable-gc-schedule: V8 sizes its heap and schedules collections by allocation, not by
  // the clock (its memory reducer and idle collections follow time, which valgrind stretches).
  return ['--tool=callgrind', `--callgrind-out-file=${join(dir, 'callgrind.%p')}`, '--dump-line=no', process.execPath, '--single-threaded', '--predictable-gc-schedule', ...served];
}

async function countSide(side, settings) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-instructions-'));
  const child = spawn('valgrind', underCallgrind(side, dir), { cwd: side.dir ?? process.cwd(), stdio: ['ignore', 'pipe', 'ignore'] });
  const limit = setTimeout(() => child.kill('SIGKILL'), SIDE_LIMIT_MS);
  try {
    const url = await listeningUrl(child);
    const send = await requestOf(url, settings.workload);
    await load(send, settings.warmup, settings.clients);
    execFileSync('callgrind_control', ['--zero', String(child.pid)], { stdio: 'ignore' });
    const refused = await load(send, settings.requests, settings.clients);
    execFileSync('callgrind_control', ['--dump=measured', String(child.pid)], { stdio: 'ignore' });
    if (refused) throw new Error(`${side.label}: ${refused} of ${settings.requests} requests were not answered 2xx`);
    const counted = measuredInstructions(dir);
    return Object.fromEntries(Object.entries(counted).map(([part, count]) => [part, count / settings.requests]));
  } finally {
    clearTimeout(limit);
    child.kill('SIGTERM');
    await new Promise((done) => (child.exitCode !== null ? done() : child.once('exit', done)));
    rmSync(dir, { recursive: true, force: true });
  }
}

function listeningUrl(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out = (out + chunk).slice(-4096);
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
}

async function requestOf(url, workload) {
  const create = () => fetch(`${url}/links`, { method: 'POST', headers: KEY, body: CREATE });
  if (workload === 'create') return create;
  // The read of bench:run's read-heavy workload: a page of the 15 links of a small account, through the admin API.
  if (workload === 'read') return () => fetch(`${url}/__admin/links?account=other-key`);
  const { id } = await (await create()).json();
  return () => fetch(`${url}/links/${id}`, { method: 'PUT', headers: KEY, body: UPDATE });
}

/** Sends `count` requests over `clients` clients; resolves with how many were not 2xx. */
async function load(send, count, clients) {
  let left = count;
  let refused = 0;
  const client = async () => {
    for (; left > 0; left -= 1) {
      const response = await send();
      await response.arrayBuffer();
      if (response.status >= 300) refused += 1;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return refused;
}

/**
 * The instructions in the dump made after the measured requests (its `summary:` line), and those
 * of them spent in V8's optimizing compiler and in its garbage collector (each function's
 * inclusive count, read with valgrind's callgrind_annotate).
 */
function measuredInstructions(dir) {
  for (const file of readdirSync(dir).filter((name) => name.startsWith('callgrind.'))) {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    if (!/^desc: Trigger: .*\bmeasured$/m.test(text)) continue;
    const summary = /^summary: (\d+)/m.exec(text);
    if (summary) return { total: Number(summary[1]), ...inclusiveOf(path, { compiler: COMPILER, gc: COLLECTOR }) };
  }
  throw new Error(`no callgrind dump of the measured requests in ${dir}`);
}

/**
 * With --single-threaded, V8 optimises functions on the main thread, so the count includes the
 * compiler's work: hundreds of thousands of instructions a request for thousands of requests
 * after start, more or less of it in the window depending on when a function got hot. That is
 * warm-up, not the cost of a request in a long run, and it hid a change of a few percent behind
 * swings of 30%: the ratio is printed with the compiler left out, and the garbage collector's
 * share apart (a full collection falls in a window or does not).
 */
const COMPILER = 'v8::internal::Compiler::CompileOptimized(';
const COLLECTOR = 'v8::internal::Heap::CollectGarbage(';

function inclusiveOf(path, functions) {
  const listing = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', '--auto=no', path], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const found = {};
  for (const [name, signature] of Object.entries(functions)) {
    const line = listing.split('\n').find((row) => row.includes(signature));
    found[name] = line ? Number(/^\s*([\d,]+)/.exec(line)?.[1].replaceAll(',', '') ?? 0) : 0;
  }
  return found;
}

async function main() {
  const settings = settingsFrom(process.argv.slice(2));
  requireValgrind();
  const log = (line) => console.log(line);
  const ref = resolveSide(settings.ref, log);
  const candidate = resolveSide(settings.candidate, log);
  log(`bench:instructions: ${settings.workload}, ${settings.warmup} requests of warm-up then ${settings.requests} counted, ${settings.clients} clients, both sides at once under callgrind`);
  const [refCount, candidateCount] = await Promise.all([countSide(ref, settings), countSide(candidate, settings)]);
  const k = (count) => `${(count / 1000).toFixed(1)} k`.padStart(9);
  const steady = (count) => count.total - count.compiler;
  const line = (label, count) => `  ${label.padEnd(46)} ${k(steady(count))} instructions per request (GC ${k(count.gc).trim()}; optimizing compiler ${k(count.compiler).trim()} more, ${k(count.total).trim()} in all)`;
  log(line(`ref ${ref.label}`, refCount));
  log(line(`candidate ${candidate.label}`, candidateCount));
  log(`  candidate / ref: ${(steady(candidateCount) / steady(refCount)).toFixed(3)}× the instructions without the optimizing compiler (lower is cheaper); GC ${(candidateCount.gc / Math.max(1, refCount.gc)).toFixed(3)}×; in all ${(candidateCount.total / refCount.total).toFixed(3)}×`);
}

main().catch((error) => {
  console.error(error.message);
  process.exit(2);
});
