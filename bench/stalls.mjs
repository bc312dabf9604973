// Finds the event-loop stalls of the mock under one workload, and what ran at that moment:
// seeds a store of N links, starts the built CLI with `--trace-gc` and a preload that prints every
// stall over a threshold (a 2 ms timer that came late), drives it with autocannon, then prints each
// stall beside the garbage collections that overlap it.
//   node bench/stalls.mjs [workload=create] [links=100000] [seconds=20] [thresholdMs=30]
import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { autocannonOptions } from './lib/workloads.mjs';
import { mockCommand, startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';
import { copyStore, prepareStore } from './lib/stores.mjs';
import { gcStalls, printStalls } from './lib/gc-stalls.mjs';

const [workload = 'create', links = '100000', seconds = '20', threshold = '30'] = process.argv.slice(2);
const tmp = mkdtempSync(join(tmpdir(), 'slm-stalls-'));
stopChildrenOnSignals();

const store = await prepareStore(tmp, Number(links));
const { db } = copyStore(store, 'probed');
const command = mockCommand({ db, fixtures: store.fixtures });
process.env.STALL_THRESHOLD_MS = threshold; // inherited by the server's preload
const preload = fileURLToPath(new URL('./lib/stall-preload.mjs', import.meta.url));
command.args = ['--trace-gc', '--import', preload, ...command.args];
const server = await startServer(command, { timeoutMs: 120_000 });
let later = ''; // startServer stops reading stdout once the server listens; --trace-gc writes there
server.child.stdout.on('data', (chunk) => {
  later += chunk;
});
const result = await autocannon(autocannonOptions(workload, server.url, Number(seconds)));
await stopServer(server);
console.log(`${workload} @${links}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);

const output = server.output() + later;
const { gcs, stalls } = gcStalls(output);
const loadStart = server.listeningMs;
console.log('collections over 10 ms, and every Mark-Compact, after the server listened:');
for (const gc of gcs.filter((gc) => gc.at > loadStart && (gc.ms > 10 || gc.what.startsWith('Mark-Compact')))) console.log(`  at ${gc.at} ms: ${gc.ms} ms ${gc.what.slice(0, 100)}`);
if (process.env.STALLS_VERBOSE) console.log(output.split('\n').filter((line) => line.includes('Mark-Compact')).join('\n'));
printStalls({ gcs, stalls }, threshold);
