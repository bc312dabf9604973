// One measured round against one running server: event-loop delay window (in-process preload),
// RSS sampling of the server's PID, the outside stall prober, and autocannon. Returns the numbers.
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { autocannonOptions, verdict } from './workloads.mjs';
import { eventLoopDelay, memoryOf } from './processes.mjs';
import { startProber } from './prober.mjs';

const RSS_EVERY_MS = 200;

export function runAutocannon(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Unmeasured load to warm the JIT and the caches. */
export async function warmUp(server, workload, durationSec) {
  if (durationSec > 0) await runAutocannon(autocannonOptions(workload, server.url, durationSec));
}

export async function measureRound(server, workload, durationSec) {
  let peakRss = 0;
  const sample = () => {
    const memory = memoryOf(server.pid);
    if (memory) peakRss = Math.max(peakRss, memory.rss);
  };
  sample();
  const sampler = setInterval(sample, RSS_EVERY_MS);
  await eventLoopDelay(server, 'reset');
  const prober = startProber(server.url, { maxMs: (durationSec + 30) * 1000 });
  let result;
  let probe;
  try {
    result = await runAutocannon(autocannonOptions(workload, server.url, durationSec));
  } finally {
    probe = await prober.stop();
    clearInterval(sampler);
  }
  sample();
  const eld = await eventLoopDelay(server, 'read');
  const { statuses, valid, problems } = verdict(workload, result);
  return {
    reqPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    peakRss: round(peakRss),
    hwm: round(memoryOf(server.pid)?.hwm ?? Number.NaN),
    statuses,
    valid,
    problems,
    probe,
    eld,
    load1: Math.round(loadavg()[0] * 100) / 100,
  };
}

const round = (value) => Math.round(value * 10) / 10;
