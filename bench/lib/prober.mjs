// An outside proxy for event-loop stalls: while a load runs, send one cheap request every 10 ms
// on a keep-alive connection of its own and keep the latencies. A stall of the server's loop
// shows as a slow probe, but so does queueing behind the load's 50 connections: the max is an
// upper bound. The probe is a CORS preflight (constant cost in the mock: answered by the cors
// middleware; Express answers OPTIONS itself): GET /__admin/health counts every link
// (Object.keys), so at 100,000 links polling it every 10 ms would itself load the server.
import http from 'node:http';

const INTERVAL_MS = 10;
export const PROBES = {
  preflight: { method: 'OPTIONS', path: '/links', headers: { origin: 'http://bench.test', 'access-control-request-method': 'POST' } },
  health: { method: 'GET', path: '/__admin/health', headers: {} },
};

/** Starts probing; `stop()` resolves {count, failures, non2xx, p50, p99, max} in ms. Bounded by maxMs. */
export function startProber(url, { probe = PROBES.preflight, maxMs = 15 * 60_000 } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  let failures = 0;
  let non2xx = 0;
  let running = true;
  const deadline = performance.now() + maxMs;
  const probeOnce = () =>
    new Promise((resolve) => {
      const start = performance.now();
      const request = http.request(`${url}${probe.path}`, { method: probe.method, headers: probe.headers, agent, timeout: 5000 }, (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - start);
          if (response.statusCode < 200 || response.statusCode > 299) non2xx += 1;
          resolve();
        });
      });
      request.on('timeout', () => request.destroy(new Error('probe timeout')));
      request.on('error', () => {
        failures += 1;
        resolve();
      });
      request.end();
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
      return { ...summarize(latencies, failures), non2xx };
    },
  };
}

/** Probes an idle server `count` times: what one probe costs without load. */
export async function idleProbe(url, probe = PROBES.preflight, count = 50) {
  const prober = startProber(url, { probe, maxMs: count * INTERVAL_MS * 4 });
  await new Promise((resolve) => setTimeout(resolve, count * INTERVAL_MS));
  return prober.stop();
}

function summarize(latencies, failures) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => (sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]) : null);
  return { count: sorted.length, failures, p50: at(0.5), p99: at(0.99), max: sorted.length ? round(sorted[sorted.length - 1]) : null };
}

const round = (ms) => Math.round(ms * 10) / 10;
