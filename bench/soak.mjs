// npm run bench:soak: is the mock's memory flat under a long mixed load? One continuous mixed
// workload (50 connections, durable mode) on a prepared store: BENCH_SOAK_WARMUP s (default 30)
// of warm-up, then BENCH_SOAK_SECONDS (default 300) with the server's RSS sampled every 5 s.
// Writes bench/soak-result.json and, when bench/results.json exists, re-renders RESULTS.md.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAutocannon } from './lib/measure.mjs';
import { eventLoopDelay, firstHealthyMs, memoryOf, mockCommand, startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';
import { soakSettings } from './lib/settings.mjs';
import { copyStore, prepareStore } from './lib/stores.mjs';
import { autocannonOptions, verdict } from './lib/workloads.mjs';
import { RESULTS_JSON, SOAK_JSON, renderReport } from './report.mjs';

const log = (line) => console.error(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main() {
  const settings = soakSettings();
  const tmp = mkdtempSync(join(tmpdir(), 'shortlink-soak-'));
  stopChildrenOnSignals(() => rmSync(tmp, { recursive: true, force: true }));
  let server;
  const samples = [];
  let sampler;
  try {
    log(`seeding ${settings.links} links`);
    const store = await prepareStore(tmp, settings.links);
    const copy = copyStore(store, 'soak');
    server = await startServer(mockCommand({ db: copy.db, fixtures: store.fixtures }));
    await firstHealthyMs(server);
    log(`mixed load for ${settings.warmUpSec} s warm-up + ${settings.soakSec} s, RSS every ${settings.sampleEverySec} s`);
    const started = performance.now();
    const load = runAutocannon(autocannonOptions('mixed', server.url, settings.warmUpSec + settings.soakSec));
    setTimeout(() => void eventLoopDelay(server, 'reset'), settings.warmUpSec * 1000).unref();
    sampler = setInterval(() => {
      const seconds = Math.round((performance.now() - started) / 1000);
      const memory = memoryOf(server.pid);
      if (!memory || seconds < settings.warmUpSec) return;
      samples.push({ t: seconds - settings.warmUpSec, rss: Math.round(memory.rss * 10) / 10, load1: Math.round(loadavg()[0] * 100) / 100 });
      log(`t=${samples.at(-1).t}s RSS ${samples.at(-1).rss} MiB`);
    }, settings.sampleEverySec * 1000);
    const result = await load;
    clearInterval(sampler);
    const eld = await eventLoopDelay(server, 'read');
    writeFileSync(SOAK_JSON, `${JSON.stringify(summary(settings, samples, result, eld), null, 2)}\n`);
  } finally {
    clearInterval(sampler);
    await stopServer(server);
    rmSync(tmp, { recursive: true, force: true });
  }
  const soak = JSON.parse(readFileSync(SOAK_JSON, 'utf8'));
  console.log(`RSS first ${soak.first} MiB, last ${soak.last} MiB, min ${soak.min} MiB, max ${soak.max} MiB: spread ${soak.spreadPct}% → ${soak.withinTenPct ? 'within 10%' : 'NOT within 10%'}${soak.valid ? '' : ` (INVALID: ${soak.problems.join('; ')})`}`);
  if (existsSync(RESULTS_JSON)) console.log(renderReport().split('\n').slice(-1)[0]);
}

function summary(settings, samples, result, eld) {
  const rss = samples.map((sample) => sample.rss);
  const first = rss[0];
  const { statuses, valid, problems } = verdict('mixed', result);
  return {
    date: new Date().toISOString(),
    ...settings,
    samples,
    first,
    last: rss.at(-1),
    min: Math.min(...rss),
    max: Math.max(...rss),
    spreadPct: Math.round(((Math.max(...rss) - Math.min(...rss)) / first) * 1000) / 10,
    withinTenPct: rss.every((value) => Math.abs(value - first) <= 0.1 * first),
    reqPerSec: result.requests.total / result.duration,
    p99: result.latency.p99,
    eld,
    statuses,
    valid: valid && samples.length >= 2,
    problems: samples.length >= 2 ? problems : [...problems, 'fewer than 2 RSS samples'],
  };
}

main().catch((error) => {
  console.error(`soak failed: ${error.stack ?? error}`);
  process.exitCode = 1;
});
