// An outside proxy for event-loop stalls: while a load runs, GET <path> every 10 ms on one
// keep-alive connection of its own and keep the latencies. A stall of the server's loop shows as
// a slow probe, but so does queueing behind the load's 50 connections: the max is an upper bound.
import http from 'node:http';

const INTERVAL_MS = 10;

/** Starts probing; `stop()` resolves {count, failures, non200, p50, p99, max} in ms. Bounded by maxMs. */
export function startProber(url, { path = '/__admin/health', maxMs = 15 * 60_000 } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  let failures = 0;
  let non200 = 0;
  let running = true;
  const deadline = performance.now() + maxMs;
  const probeOnce = () =>
    new Promise((resolve) => {
      const start = performance.now();
      const request = http.get(`${url}${path}`, { agent, timeout: 5000 }, (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - start);
          if (response.statusCode !== 200) non200 += 1;
          resolve();
        });
      });
      request.on('timeout', () => request.destroy(new Error('probe timeout')));
      request.on('error', () => {
        failures += 1;
        resolve();
      });
    });
  const loop = (async () => {
    while (running && performance.now() < deadline) {
      const next = performance.now() + INTERVAL_MS;
      await probeOnce();
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return { ...summarize(latencies, failures), non200 };
    },
  };
}

/** Probes an idle server `count` times: what one probe costs without load. */
export async function idleProbe(url, path = '/__admin/health', count = 50) {
  const prober = startProber(url, { path, maxMs: count * INTERVAL_MS * 4 });
  await new Promise((resolve) => setTimeout(resolve, count * INTERVAL_MS));
  return prober.stop();
}

function summarize(latencies, failures) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => (sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]) : null);
  return { count: sorted.length, failures, p50: at(0.5), p99: at(0.99), max: sorted.length ? round(sorted[sorted.length - 1]) : null };
}

const round = (ms) => Math.round(ms * 10) / 10;
