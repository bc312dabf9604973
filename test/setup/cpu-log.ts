// Where the suite's CPU goes, per test file: with SHORTLINK_MOCK_CPU_LOG=FILE (vitest.config.ts adds
// this setup file only then), each file appends a line to FILE: its path, its store, its worker's
// pid, its wall seconds, the worker's own CPU seconds and those of the child processes it waited
// for (the CLI, npm, node clients, browsers), from /proc/self/stat, and when it started (Unix
// seconds: which files ran together, and which ran on alone at the end). Wall times in a parallel run
// move with the machine's load; CPU seconds do not, and the suite's wall on 2 cores is at least
// its CPU / 2. Linux only. Children that outlive their parent are not counted.
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const TICKS_PER_SECOND = 100;

/** Seconds of CPU: [this process, its waited-for children]. */
function cpuSeconds(): [number, number] {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // After the command's name in parentheses: field 3 (state) is index 0, utime (14) index 11.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  const [utime = 0, stime = 0, cutime = 0, cstime = 0] = fields.slice(11, 15);
  return [(utime + stime) / TICKS_PER_SECOND, (cutime + cstime) / TICKS_PER_SECOND];
}

let start: [number, number] = [0, 0];
let startedAt = 0;
beforeAll(() => {
  start = cpuSeconds();
  startedAt = Date.now();
});
// Vitest passes the file as the hook's second argument (the first must be a destructured context).
afterAll(({}, file) => {
  const [own, children] = cpuSeconds();
  const path = relative(process.cwd(), String((file as { filepath?: string }).filepath));
  const store = process.env['SHORTLINK_MOCK_TEST_STORE'] ?? 'memory';
  const row = [path, store, process.pid, (Date.now() - startedAt) / 1000, own - start[0], children - start[1], startedAt / 1000];
  appendFileSync(process.env['SHORTLINK_MOCK_CPU_LOG'] ?? '', `${row.map((value) => (typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(2) : value)).join('\t')}\n`);
});
