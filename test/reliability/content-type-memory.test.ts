// Memory must stay flat whatever a client sends, also in a header: creates whose content type
// carries a parameter that differs per request (`application/json; v=<n>`, which the body parser
// and the contract accept as JSON) must cost no more memory than the same creates with one content
// type. Bounded: a few hundred requests each way, on a :memory: db.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DEMO, rssKiB, send, startServer, stopAll, type Server } from './helpers.js';

const REQUESTS = 400;
/** Growth allowed over the distinct-parameter phase: well above GC noise (a few MiB). */
const ALLOWED_GROWTH_KIB = 32 * 1024;
const started: Server[] = [];
let dir: string;
let server: Server;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slm-ct-'));
  server = await startServer(['--db', ':memory:', '--quiet'], dir, started);
});
afterAll(async () => {
  await stopAll(started);
  rmSync(dir, { recursive: true, force: true });
});

async function creates(contentType: (n: number) => string): Promise<{ statuses: Record<number, number>; ms: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const statuses: Record<number, number> = {};
  const startedAt = performance.now();
  let next = 0;
  const loop = async (): Promise<void> => {
    while (next < REQUESTS) {
      const n = next++;
      const answer = await send(agent, server.url, {
        method: 'POST',
        path: '/links',
        headers: { 'x-api-key': DEMO, 'content-type': contentType(n) },
        body: JSON.stringify({ destinationUrl: `https://example.com/ct/${n}`, domain: 'short.test', tags: [] }),
      });
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: 8 }, loop));
  } finally {
    agent.destroy();
  }
  return { statuses, ms: performance.now() - startedAt };
}

describe('memory under per-request content-type parameters', () => {
  it(`stays flat over ${REQUESTS} creates, each with its own content-type parameter`, async () => {
    await creates(() => 'application/json'); // warm-up
    const same = await creates(() => 'application/json; charset=utf-8');
    const before = rssKiB(server.pid);
    const distinct = await creates((n) => `application/json; v=${n}`);
    const after = rssKiB(server.pid);
    console.log(
      `[content-type] ${REQUESTS} creates with one content type: ${JSON.stringify(same.statuses)} in ${same.ms.toFixed(0)} ms; ` +
        `with a distinct parameter each: ${JSON.stringify(distinct.statuses)} in ${distinct.ms.toFixed(0)} ms; RSS ${before} → ${after} KiB (+${after - before})`,
    );
    // Whatever the status (201, or a 400 refusing the parameter), the server must not keep a trace per request.
    expect(after - before, `RSS grew by ${after - before} KiB over ${REQUESTS} requests`).toBeLessThanOrEqual(ALLOWED_GROWTH_KIB);
  }, 120_000);
});
