// Where a saturated server's time goes, by thread: the rate of a workload at 50 connections and the
// CPU share of each of the server's threads over the measured window (from /proc, Linux only). A
// main thread under 100% is a server that waited: for its disk (the change log's fdatasync), or for
// its clients. Its CPU per request is busy share / rate, which a CPU profile inflates and this does not.
//   node bench/saturation.mjs [mock|ceiling|floor] [--workload create] [--duration 8] [-- extra mock flags]
// The mock is this checkout's build (npm run build first) on a fresh db of its own, seeded with
// --reset; `ceiling` is bare Express on the mock's createHttpServer (bench/baseline-server.mjs);
// `floor` is the ceiling with the mock's contract validator in front (`--validator`).
import autocannon from 'autocannon';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { autocannonOptions, verdict } from './lib/workloads.mjs';
import { baselineCommand, ROOT, startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';

const WARM_UP_SEC = 3;
const TICKS_PER_SEC = 100; // USER_HZ: /proc's clock ticks on Linux

const { values, positionals } = parseArgs({ allowPositionals: true, options: { workload: { type: 'string', default: 'create' }, duration: { type: 'string', default: '8' } } });
const [side = 'mock', ...mockFlags] = positionals;
if (side !== 'mock' && side !== 'ceiling' && side !== 'floor') throw new Error('usage: node bench/saturation.mjs [mock|ceiling|floor] [--workload NAME] [--duration S] [-- mock flags]');
const durationSec = Math.min(120, Math.max(1, Number(values.duration) || 8));

/** Each thread's CPU ticks (user + system) by `tid:name`. */
function threadTicks(pid) {
  const ticks = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks.set(`${tid}:${name}`, Number(fields[11]) + Number(fields[12]));
  }
  return ticks;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-saturation-'));
stopChildrenOnSignals(() => rmSync(dir, { recursive: true, force: true }));
const command = side !== 'mock' ? baselineCommand({ appServer: true, validator: side === 'floor' }) : { command: process.execPath, args: [join(ROOT, 'dist/src/cli.js'), '--port', '0', '--host', '127.0.0.1', '--quiet', '--db', join(dir, 'db.json'), '--reset', ...mockFlags] };
const server = await startServer(command);
try {
  await autocannon(autocannonOptions(values.workload, server.url, WARM_UP_SEC));
  const before = threadTicks(server.pid);
  const started = performance.now();
  const result = await autocannon(autocannonOptions(values.workload, server.url, durationSec));
  const after = threadTicks(server.pid);
  const elapsedSec = (performance.now() - started) / 1000;
  const { valid, problems } = verdict(values.workload, result);
  if (!valid) throw new Error(`the round was not valid: ${problems.join(', ')}`);
  const shares = [...after].map(([thread, ticks]) => [thread, (100 * (ticks - (before.get(thread) ?? 0))) / TICKS_PER_SEC / elapsedSec]);
  const main = shares.find(([thread]) => thread.startsWith(`${server.pid}:`));
  const others = shares.filter((share) => share !== main);
  const rate = result.requests.average;
  console.log(`${side} ${values.workload}: ${Math.round(rate)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`);
  console.log(`main thread ${main[1].toFixed(1)}% busy: ${((main[1] / 100 / rate) * 1e6).toFixed(1)} µs of it a request`);
  console.log(`other threads ${others.reduce((sum, [, share]) => sum + share, 0).toFixed(1)}% of a core: ${others.filter(([, share]) => share >= 0.5).map(([thread, share]) => `${thread} ${share.toFixed(1)}%`).join(', ')}`);
} finally {
  await stopServer(server, 30_000);
  rmSync(dir, { recursive: true, force: true });
}
