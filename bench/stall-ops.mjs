// The event-loop stalls of the admin operations that touch the whole store (snapshot, restore,
// reset, compaction: bench/lib/scale-ops.mjs) on a prepared db file, each stall beside the garbage
// collections that overlap it: the built CLI runs with `--trace-gc` and a preload that prints every
// stall over a threshold (bench/lib/stall-preload.mjs). The db file is copied first, never changed.
//   node bench/stall-ops.mjs <db.json> <fixtures.json> [thresholdMs=30]
// STALL_CPU_PROF_DIR=<dir>: the server also writes a CPU profile there (--cpu-prof), to tell a stall of
// our own code from one of the collector's: its samples carry the time since the process began too.
// STALL_NO_COMPACTION=1: snapshot, restore and reset only (the compaction waits for a quarter of the
// db's size in creates: log-file-store.ts COMPACT_LOG_SHARE). STALL_COMPACTION_ONLY=1: the compaction alone,
// on the state as started (after a reset, its window also holds the collection of the state replaced).
// STALL_TAIL_MS=<ms>: the server kept that long after the last operation, idle but for the stall monitor:
// the full collection that frees the state a reset replaced falls after the reset (in bench:scale, in the
// compaction's window), and its pause and marking steps are the reset's cost too.
// STALL_NODE_FLAGS="--trace-gc-nvp ...": more flags for the server's node; STALL_OUTPUT=<file>: its whole
// output (the --trace-gc lines, the stalls) is written there too, to read a phase of a pause (with
// --trace-gc-nvp V8 prints its name=value lines instead of --trace-gc's: the summary below then lists no collections).
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gcStalls, printStalls } from './lib/gc-stalls.mjs';
import { memoryOf, mockCommand, startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';
import { adminOps } from './lib/scale-ops.mjs';

const [source, fixtures, threshold = '30'] = process.argv.slice(2);
if (!source || !fixtures) throw new Error('usage: node bench/stall-ops.mjs <db.json> <fixtures.json> [thresholdMs]');
const tmp = mkdtempSync(join(tmpdir(), 'slm-stall-ops-'));
stopChildrenOnSignals(() => rmSync(tmp, { recursive: true, force: true }));
const db = join(tmp, 'db.json');
copyFileSync(source, db);
const command = mockCommand({ db, fixtures });
process.env.STALL_THRESHOLD_MS = threshold; // inherited by the server's preload
const preload = fileURLToPath(new URL('./lib/stall-preload.mjs', import.meta.url));
const profile = process.env.STALL_CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.STALL_CPU_PROF_DIR] : [];
const flags = (process.env.STALL_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
command.args = ['--trace-gc', ...flags, ...profile, '--import', preload, ...command.args];
const rss = () => {
  const memory = memoryOf(server.pid);
  return memory ? `RSS ${Math.round(memory.rss)} MiB (peak ${Math.round(memory.hwm)})` : 'RSS —';
};
const log = (line) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
let server;
let later = ''; // startServer stops reading stdout once the server listens; --trace-gc writes there
try {
  server = await startServer(command, { timeoutMs: 900_000 });
  server.child.stdout.on('data', (chunk) => void (later += chunk));
  log(`listening after ${Math.round(server.listeningMs)} ms`);
  // The server's clock, which --trace-gc prints too: where each operation ended among the stalls.
  const mark = (line) => log(`${line}, ending at ~${Math.round(performance.now() - server.started)} ms, ${rss()}`);
  log(`started: ${rss()}`);
  const ops = await adminOps(server, db, mark, { compaction: process.env.STALL_NO_COMPACTION !== '1', compactionOnly: process.env.STALL_COMPACTION_ONLY === '1' });
  const tail = Number(process.env.STALL_TAIL_MS ?? 0);
  if (tail > 0) {
    await new Promise((resolve) => setTimeout(resolve, tail));
    mark(`tail of ${tail} ms`);
  }
  console.log(JSON.stringify(ops));
} finally {
  await stopServer(server, 60_000);
  if (server) printStalls(gcStalls(server.output() + later), threshold);
  if (server && process.env.STALL_OUTPUT) writeFileSync(process.env.STALL_OUTPUT, server.output() + later);
  rmSync(tmp, { recursive: true, force: true });
}
