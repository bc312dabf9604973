// The stalls of the replaces (issue 40): a snapshot saved, then restored RESTORES times, then RESETS
// resets, on a copy of a prepared db file, each operation beside the garbage collections V8 ran
// during it, phase by phase (`--trace-gc-nvp`), and the longest steps of the loop during it (the
// 2 ms timer of bench/lib/stall-preload.mjs). Restored twice because the second restore is the
// worse: the first one's state and the new data are both alive when the old generation first
// reaches its limit (a full collection of ~1.6 GB), where the first restore ran none.
//   node bench/replace-stalls.mjs <db.json> <fixtures.json> [restores=2] [resets=1]
// REPLACE_STALLS_TREE=<checkout>: run that checkout's built CLI instead (A/B alternating with this one).
// STALL_NODE_FLAGS="...": more flags for the server's node; STALL_CPU_PROF_DIR=<dir>: a CPU profile too.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [source, fixtures, restores = '2', resets = '1'] = process.argv.slice(2);
if (!source || !fixtures) throw new Error('usage: node bench/replace-stalls.mjs <db.json> <fixtures.json> [restores] [resets]');
const tree = resolve(process.env.REPLACE_STALLS_TREE ?? fileURLToPath(new URL('..', import.meta.url)));
const { memoryOf, mockCommand, startServer, stopChildrenOnSignals, stopServer } = await import(join(tree, 'bench/lib/processes.mjs'));
const { timed } = await import(join(tree, 'bench/lib/scale-phases.mjs'));
const THRESHOLD_MS = 40;

const tmp = mkdtempSync(join(tmpdir(), 'slm-replace-stalls-'));
stopChildrenOnSignals(() => rmSync(tmp, { recursive: true, force: true }));
const db = join(tmp, 'db.json');
copyFileSync(source, db);
const command = mockCommand({ db, fixtures });
process.env.STALL_THRESHOLD_MS = String(THRESHOLD_MS); // inherited by the server's preload
const preload = fileURLToPath(new URL('./lib/stall-preload.mjs', import.meta.url));
const profile = process.env.STALL_CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.STALL_CPU_PROF_DIR] : [];
const flags = (process.env.STALL_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
command.args = ['--trace-gc-nvp', ...flags, ...profile, '--import', preload, ...command.args];

const request = async (server, method, path, status) => {
  const response = await fetch(`${server.url}${path}`, { method });
  await response.text();
  if (response.status !== status) throw new Error(`${method} ${path}: ${response.status}`);
};
let server;
let later = ''; // startServer stops reading stdout once the server listens; V8 traces there
const ops = [];
try {
  server = await startServer(command, { timeoutMs: 900_000 });
  server.child.stdout.on('data', (chunk) => void (later += chunk));
  console.log(`${tree}: listening after ${Math.round(server.listeningMs)} ms`);
  // On the server's clock (roughly: the harness's since the spawn), which the traces print.
  const now = () => Math.round(performance.now() - server.started);
  const op = async (name, path, status) => {
    const from = now();
    const { ms, stallMs } = await timed(server, () => request(server, 'POST', path, status));
    ops.push({ name, from, to: now(), ms: Math.round(ms), stallMs, rssMiB: Math.round(memoryOf(server.pid)?.rss ?? 0) });
  };
  await op('snapshot', '/__admin/snapshots/replace-stalls', 201);
  for (let i = 0; i < Number(restores); i += 1) await op(`restore ${i + 1}`, '/__admin/snapshots/replace-stalls/restore', 200);
  await request(server, 'DELETE', '/__admin/snapshots/replace-stalls', 204);
  for (let i = 0; i < Number(resets); i += 1) await op(`reset ${i + 1}`, '/__admin/reset', 200);
} finally {
  await stopServer(server, 60_000);
  if (server) {
    const output = server.output() + later;
    if (process.env.STALL_OUTPUT) writeFileSync(process.env.STALL_OUTPUT, output);
    for (const line of report(output, ops)) console.log(line);
  }
  rmSync(tmp, { recursive: true, force: true });
}

/** Per operation: its time and longest stall, the longest steps the timer saw, its scavenges, and each full collection's phases. */
function report(output, done) {
  const traced = [...output.matchAll(/^\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: (pause=.*)$/gm)];
  // The first isolate seen is the main thread's (a worker thread's collections stall no request).
  const main = traced[0]?.[1];
  const gcs = traced.filter((m) => m[1] === main).map((m) => ({ at: Number(m[2]), f: Object.fromEntries(m[3].trim().split(/\s+/).map((pair) => pair.split('='))) }));
  const steps = [...output.matchAll(/^STALL (\d+) ms ending at (\d+) ms/gm)].map((m) => ({ ms: Number(m[1]), end: Number(m[2]) }));
  const lines = [];
  for (const { name, from, to, ms, stallMs, rssMiB } of done) {
    const during = gcs.filter((gc) => gc.at >= from && gc.at <= to);
    const scavenges = during.filter((gc) => gc.f.gc === 's').map((gc) => Number(gc.f.pause));
    const longest = steps.filter((step) => step.end >= from && step.end <= to).map((step) => step.ms).sort((a, b) => b - a);
    lines.push(`${name}: ${ms} ms, longest stall ${stallMs} ms, RSS ${rssMiB} MiB; steps over ${THRESHOLD_MS} ms: ${longest.length} (longest ${longest.slice(0, 5).join(', ')})`);
    lines.push(`  scavenges: ${scavenges.length}, longest ${Math.max(0, ...scavenges)} ms, together ${Math.round(scavenges.reduce((sum, pause) => sum + pause, 0))} ms`);
    for (const { at, f } of during.filter((gc) => gc.f.gc === 'mc')) {
      const mb = (bytes) => Math.round(Number(bytes) / 2 ** 20);
      lines.push(
        `  full GC at ${at} ms${f.reduce_memory === '1' ? ' (memory-reducing)' : ''}: pause ${f.pause} ms = mark ${f.mark} + clear ${f.clear} + evacuate ${f.evacuate} (copy ${f['evacuate.copy']}, update pointers ${f['evacuate.update_pointers']}: to new roots ${f['evacuate.update_pointers.to_new_roots']}, slots ${f['evacuate.update_pointers.slots.main']}) + sweep ${f.sweep};` +
          ` before it ${f.incremental_steps_count} marking steps on this thread, ${f.incremental} ms in all, the longest ${f.incremental_longest_step} ms, over ${f.incremental_walltime_duration} ms; background marking ${f['background.mark']} ms; heap ${mb(f.total_size_before)} -> ${mb(f.total_size_after)} MiB`,
      );
    }
  }
  return lines;
}
