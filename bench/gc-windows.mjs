// bench:scale's sequence on the file store (a create load, then a snapshot, its restore, a reset and
// the compaction's creates: bench/lib/scale-ops.mjs, then a create load again), with the server under
// `--trace-gc-nvp` and a 2 ms stall timer (bench/lib/stall-preload.mjs): each full collection's
// phases, and the stalls over 30 ms, to tell a collector's pause from its marking steps and from our
// own code's (issue 40, bench/replace-stalls.md). The db file is copied first, never changed.
//   node bench/gc-windows.mjs <db.json> <fixtures.json> [loadSeconds=30] [node flags...]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { mockCommand, startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';
import { adminOps } from './lib/scale-ops.mjs';
import { autocannonOptions } from './lib/workloads.mjs';

const [source, fixtures, seconds = '30', ...flags] = process.argv.slice(2);
if (!source || !fixtures) throw new Error('usage: node bench/gc-windows.mjs <db.json> <fixtures.json> [loadSeconds] [node flags...]');
const tmp = mkdtempSync(join(tmpdir(), 'slm-gc-windows-'));
stopChildrenOnSignals(() => rmSync(tmp, { recursive: true, force: true }));
const db = join(tmp, 'db.json');
copyFileSync(source, db);
const command = mockCommand({ db, fixtures });
process.env.STALL_THRESHOLD_MS = '30'; // inherited by the server's preload
const preload = fileURLToPath(new URL('./lib/stall-preload.mjs', import.meta.url));
command.args = ['--trace-gc-nvp', ...flags, '--import', preload, ...command.args];
let server;
let later = ''; // startServer stops reading stdout once the server listens; --trace-gc-nvp writes there
try {
  server = await startServer(command, { timeoutMs: 900_000 });
  server.child.stdout.on('data', (chunk) => void (later += chunk));
  const at = () => Math.round(performance.now() - server.started);
  const mark = (line) => console.log(`${line}, ending at ~${at()} ms`);
  mark(`listening after ${Math.round(server.listeningMs)} ms`);
  await autocannon(autocannonOptions('create', server.url, Number(seconds)));
  mark('the create load before');
  console.log(JSON.stringify(await adminOps(server, db, mark)));
  await autocannon(autocannonOptions('create', server.url, Number(seconds)));
  mark('the create load after');
} finally {
  await stopServer(server, 60_000);
  if (server) report(server.output() + later, server.listeningMs);
  rmSync(tmp, { recursive: true, force: true });
}

/** Each full collection of the server's main thread after it listened, and its stalls (the seed worker's isolate has its own lines). */
function report(output, listening) {
  const lines = output.split('\n');
  const main = lines.find((line) => /gc=mc/.test(line))?.match(/^\[\d+:(0x[0-9a-f]+)\]/)?.[1];
  for (const line of lines.filter((each) => /gc=mc/.test(each) && each.includes(main))) {
    const f = Object.fromEntries([...line.matchAll(/([\w.]+)=([\d.]+)/g)].map((m) => [m[1], m[2]]));
    const ms = Number(line.match(/(\d+) ms: pause/)?.[1]);
    if (ms < listening) continue;
    console.log(`full collection at ${ms} ms: pause ${f.pause} = mark ${f.mark} + clear ${f.clear} + evacuate ${f.evacuate} (of it to_new_roots ${f['evacuate.update_pointers.to_new_roots']}) + sweep ${f.sweep}; incremental steps on this thread ${f.incremental} ms in ${f.incremental_steps_count}, the longest ${f.incremental_longest_step}; background marking ${f['background.mark']} ms`);
  }
  const stalls = lines.filter((line) => line.startsWith('STALL')).map((line) => line.split(' ')).map((w) => [Number(w[1]), Number(w[5])]).filter(([, end]) => end > listening);
  console.log(`stalls over 30 ms after listening: ${stalls.length}; the longest: ${stalls.sort((x, y) => y[0] - x[0]).slice(0, 10).map(([ms, end]) => `${ms} ms ending at ${end}`).join(', ')}`);
}
