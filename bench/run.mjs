// npm run bench: every workload × store size against the mock and the bare Express baseline,
// alternating (mock, baseline, mock, baseline, …), each round on a freshly started server (the
// mock on a fresh copy of a prepared store). Writes bench/results.json, then bench/RESULTS.md and
// bench/throughput.svg (bench/report.mjs). With 1,000 and 100,000 among the sizes, create then runs
// once more at both, alternating, for the write-path target. Knobs: BENCH_DURATION, BENCH_ROUNDS, BENCH_WARMUP,
// BENCH_SIZES, BENCH_WORKLOADS, BENCH_PEERS=1. Last, the cold start of bench/cold-start.mjs (BENCH_START_*).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineInfo } from './lib/machine.mjs';
import { measureRound, warmUp } from './lib/measure.mjs';
import { runPeers } from './lib/peers.mjs';
import { baselineCommand, firstHealthyMs, mockCommand, startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';
import { idleProbe, PROBES } from './lib/prober.mjs';
import { benchSettings, startSettings } from './lib/settings.mjs';
import { copyStore, prepareStore } from './lib/stores.mjs';
import { redisRounds } from './lib/redis-rounds.mjs';
import { measureStarts } from './cold-start.mjs';
import { RESULTS_JSON, renderReport, START_JSON } from './report.mjs';

const log = (line) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main() {
  const settings = benchSettings();
  const tmp = mkdtempSync(join(tmpdir(), 'shortlink-bench-'));
  stopChildrenOnSignals(() => rmSync(tmp, { recursive: true, force: true }));
  const results = { machine: machineInfo(tmp), settings, startedAt: new Date().toISOString(), sizes: {} };
  log(`${settings.rounds} rounds × ${settings.durationSec} s (+${settings.warmUpSec} s warm-up) × [${settings.workloads}] × [${settings.sizes}] links; tmp ${tmp}`);
  const stores = new Map();
  try {
    for (const links of settings.sizes) results.sizes[links] = await benchSize(tmp, links, settings, stores);
    results.writePath = await writePathRounds(stores, settings);
    const redisStore = stores.get(1000) ?? stores.get(Math.min(...stores.keys()));
    if (redisStore) results.redis = await redisRounds({ ...redisStore, copy: (name) => copyStore(redisStore, name).db }, settings, log);
    results.peers = await runPeers(settings, log);
    writeFileSync(START_JSON, `${JSON.stringify(await measureStarts(startSettings(), tmp), null, 2)}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  results.finishedAt = new Date().toISOString();
  results.machine.loadAverageAtEnd = loadavg().map((value) => Math.round(value * 100) / 100);
  writeFileSync(RESULTS_JSON, `${JSON.stringify(results, null, 2)}\n`);
  console.log(renderReport());
}

async function benchSize(tmp, links, settings, stores) {
  log(`seeding a store of ${links} links`);
  const store = await prepareStore(tmp, links);
  stores.set(links, store);
  log(`seeded in ${Math.round(store.seedMs)} ms`);
  const size = { seedMs: store.seedMs, coldStartMs: [], idleProbe: {}, workloads: {} };
  for (const workload of settings.workloads) {
    const rounds = { mock: [], baseline: [] };
    for (let round = 1; round <= settings.rounds; round += 1) {
      rounds.mock.push(await mockRound(store, workload, round, settings, size));
      rounds.baseline.push(await baselineRound(workload, settings, size));
      log(`${links} links, ${workload}, round ${round}: mock ${line(rounds.mock.at(-1))} | baseline ${line(rounds.baseline.at(-1))}`);
    }
    size.workloads[workload] = rounds;
  }
  return size;
}

/**
 * The write-path target compares create at 100,000 links with create at 1,000. The main table
 * measures the two sizes minutes apart, and the machine drifts in between, so here the two
 * alternate round by round: 1,000, 100,000, 1,000, 100,000, …
 */
async function writePathRounds(stores, settings) {
  const small = stores.get(1000);
  const big = stores.get(100000);
  if (!small || !big || !settings.workloads.includes('create')) return undefined;
  const rounds = { 1000: [], 100000: [] };
  for (let round = 1; round <= settings.rounds; round += 1) {
    for (const store of [small, big]) rounds[store.links].push(await mockRound(store, 'create', `alt-${round}`, settings));
    log(`write path, create, round ${round}: 1,000 links ${line(rounds[1000].at(-1))} | 100,000 links ${line(rounds[100000].at(-1))}`);
  }
  return rounds;
}

/** `size`, when given, collects the start's cold-start time and the idle probes. */
async function mockRound(store, workload, round, settings, size) {
  const copy = copyStore(store, `round-${workload}-${round}`);
  let server;
  try {
    server = await startServer(mockCommand({ db: copy.db, fixtures: store.fixtures }), { timeoutMs: 60_000 });
    const coldStartMs = await firstHealthyMs(server);
    if (size) {
      size.coldStartMs.push(coldStartMs);
      size.idleProbe.mock ??= { health: await idleProbe(server.url, PROBES.health), preflight: await idleProbe(server.url) };
    }
    await warmUp(server, workload, settings.warmUpSec);
    return await measureRound(server, workload, settings.durationSec);
  } finally {
    await stopServer(server);
    copy.remove();
  }
}

async function baselineRound(workload, settings, size) {
  let server;
  try {
    server = await startServer(baselineCommand(), { timeoutMs: 30_000 });
    size.idleProbe.baseline ??= { health: await idleProbe(server.url, PROBES.health), preflight: await idleProbe(server.url) };
    await warmUp(server, workload, settings.warmUpSec);
    return await measureRound(server, workload, settings.durationSec);
  } finally {
    await stopServer(server);
  }
}

const line = (r) => `${Math.round(r.reqPerSec)} req/s p99 ${r.p99} ms${r.valid ? '' : ` INVALID (${r.problems.join(', ')})`}`;

main().catch((error) => {
  console.error(`bench failed: ${error.stack ?? error}`);
  process.exitCode = 1;
});
