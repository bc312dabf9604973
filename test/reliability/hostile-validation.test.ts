// Issue 23 items 3-5 on real processes: repeated hostile bodies (1 MiB of 40,000 numeric tag ids,
// of distinct unknown fields, of 150,000 tags; 12 and 50 KiB bodies validated with allErrors)
// sent to a mock on a file db and through a validating proxy in front of it. While they are sent,
// /__admin/health answers each probe within 100 ms, RSS stays bounded, and every link acknowledged
// meanwhile survives a kill -9 and a restart on the same db.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, jsonHeaders, listLinks, rssKiB, send, startServer, stopAll, type Server } from './helpers.js';

const ROUNDS = 8;
const HEALTH_LIMIT_MS = 100;
/** RSS growth allowed over the hostile rounds: each body is 1 MiB, a kept violation list ~1.6 GB per 200 before the cap. */
const ALLOWED_GROWTH_KIB = 64 * 1024;

const numbers = (count: number): number[] => Array.from({ length: count }, (_, i) => i);
const LINK = { destinationUrl: 'https://e.test/', domain: 'short.test' };
const HOSTILE = [
  JSON.stringify({ ...LINK, tags: numbers(40_000).map((i) => ({ id: 10_000 + i, name: 'n' })) }),
  JSON.stringify({ ...LINK, tags: [], ...Object.fromEntries(numbers(80_000).map((i) => [`f${i}`, 1])) }),
  JSON.stringify({ ...LINK, tags: numbers(150_000) }),
  JSON.stringify({ ...LINK, tags: numbers(10_000) }),
  JSON.stringify({ ...LINK, tags: [], ...Object.fromEntries(numbers(990).map((i) => [`f${i}`, 1])) }),
  JSON.stringify({ ...LINK, tags: [], ...Object.fromEntries(numbers(990).map((i) => [`${i}`.padEnd(1000, 'x'), 1])) }),
];

const started: Server[] = [];
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-hostile-validation-'));
});
afterAll(async () => {
  await stopAll(started);
  rmSync(dir, { recursive: true, force: true });
});

/** Sends every hostile body ROUNDS times (two in flight) plus one valid create per body, probing health meanwhile. */
async function hostileLoad(target: string, healthOf: string): Promise<{ slowestHealthMs: number; acknowledged: string[]; statuses: Record<number, number> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const probe = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const statuses: Record<number, number> = {};
  const acknowledged: string[] = [];
  let slowestHealthMs = 0;
  let done = false;
  const probing = (async () => {
    for (let probes = 0; !done && probes < 10_000; probes++) {
      const at = performance.now();
      const health = await send(probe, healthOf, { method: 'GET', path: '/__admin/health' });
      expect(health.status).toBe(200);
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const queue = Array.from({ length: ROUNDS }, () => HOSTILE).flat();
  const worker = async (): Promise<void> => {
    for (let body = queue.shift(); body !== undefined; body = queue.shift()) {
      const hostile = await send(agent, target, { method: 'POST', path: '/links', headers: jsonHeaders(), body });
      statuses[hostile.status] = (statuses[hostile.status] ?? 0) + 1;
      const created = await send(agent, target, { method: 'POST', path: '/links', headers: jsonHeaders(), body: JSON.stringify({ ...LINK, tags: [{ name: 'kept' }] }) });
      if (created.status === 201) acknowledged.push((JSON.parse(created.text) as { id: string }).id);
    }
  };
  // Settled, not raced: a failing worker must not leave the other's request rejecting unobserved.
  const outcomes = await Promise.allSettled([worker(), worker()]);
  done = true;
  const probed = await Promise.allSettled([probing]);
  agent.destroy();
  probe.destroy();
  for (const outcome of [...outcomes, ...probed]) if (outcome.status === 'rejected') throw outcome.reason;
  return { slowestHealthMs, acknowledged, statuses };
}

describe('hostile bodies against a mock on a file db and a validating proxy in front of it', () => {
  it('health within 100 ms, RSS bounded, 400s for the mock, every acknowledged link kept across kill -9', async () => {
    const db = join(dir, 'db.json');
    let mock = await startServer(['--db', db, '--quiet'], dir, started);
    const warm = await hostileLoad(mock.url, mock.url); // compiles both validator modes, warms the JIT
    const before = rssKiB(mock.pid);
    const load = await hostileLoad(mock.url, mock.url);
    const after = rssKiB(mock.pid);
    console.log(`[hostile-validation] mock: ${JSON.stringify(load.statuses)}, slowest health ${load.slowestHealthMs.toFixed(1)} ms, RSS ${before} → ${after} KiB`);
    expect(load.statuses).toEqual({ 400: ROUNDS * HOSTILE.length });
    expect(load.slowestHealthMs).toBeLessThan(HEALTH_LIMIT_MS);
    expect(after - before).toBeLessThanOrEqual(ALLOWED_GROWTH_KIB);
    await mock.signal('SIGKILL');
    mock = await startServer(['--db', db, '--quiet'], dir, started);
    const links = await listLinks(mock.url, DEMO);
    const missing = [...warm.acknowledged, ...load.acknowledged].filter((id) => !links.has(id));
    expect(missing).toEqual([]);
  });

  it('through the proxy: health within 100 ms, RSS bounded, each journal entry keeps 40 violations at most', async () => {
    const upstream = await startServer(['--db', ':memory:', '--quiet'], dir, started);
    const proxy = await startServer(['--db', ':memory:', '--quiet', '--proxy', upstream.url, '--journal-size', '1000'], dir, started);
    await hostileLoad(proxy.url, proxy.url);
    const before = rssKiB(proxy.pid);
    const load = await hostileLoad(proxy.url, proxy.url);
    const after = rssKiB(proxy.pid);
    console.log(`[hostile-validation] proxy: ${JSON.stringify(load.statuses)}, slowest health ${load.slowestHealthMs.toFixed(1)} ms, RSS ${before} → ${after} KiB`);
    expect(load.slowestHealthMs).toBeLessThan(HEALTH_LIMIT_MS);
    expect(after - before).toBeLessThanOrEqual(ALLOWED_GROWTH_KIB);
    const agent = new http.Agent({ keepAlive: false });
    const journal = JSON.parse((await send(agent, proxy.url, { method: 'GET', path: '/__admin/requests' })).text) as { entries: { violations?: unknown[] }[] };
    expect(Math.max(...journal.entries.map((entry) => entry.violations?.length ?? 0))).toBeLessThanOrEqual(40);
    const report = JSON.parse((await send(agent, proxy.url, { method: 'GET', path: '/__admin/violations' })).text) as { distinct: number };
    expect(report.distinct).toBeLessThan(50);
  });
});
