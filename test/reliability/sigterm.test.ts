// SIGTERM in the middle of a create load (once among plain appends, once while a compaction
// runs): the process must exit with code 0 within 5 s of the signal, db.json alone (read as JSON,
// no log left beside it) must hold every link the clients were answered 201 for, and so must a
// restart.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../src/core/model.js';
import { createLoad, exists, listLinks, startServer, stopAll, whenAcked, whenInDir, type Load, type Server } from './helpers.js';
import { prefillLog } from './prefill.js';

const WORKERS = 20;
const STOP_LIMIT_MS = 5000;
const started: Server[] = [];
let dir: string;
let db: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-sigterm-'));
  db = join(dir, 'db.json');
});
afterEach(async () => {
  await stopAll(started);
  rmSync(dir, { recursive: true, force: true });
});

async function seedDb(): Promise<void> {
  const first = await startServer(['--db', db, '--quiet'], dir, started);
  expect((await first.signal('SIGTERM')).code).toBe(0);
}

/** Runs a load, sends SIGTERM when `trigger` resolves, and checks the stop and what survived. */
async function stopDuringLoad(label: string, trigger: (load: Load) => Promise<void>, mustExist = new Map<string, string>()): Promise<{ ms: number; files: string[]; load: Load; ackedAfterSignal: number }> {
  const server = await startServer(['--db', db, '--quiet'], dir, started);
  const load = createLoad(server.url, { workers: WORKERS, maxRequests: 40_000, maxMs: 40_000, label });
  let ms: number;
  let ackedAtSignal: number;
  try {
    await trigger(load);
    const inFlight = load.inFlight();
    ackedAtSignal = load.acked.size;
    const sentAt = performance.now();
    const exit = await Promise.race([
      server.signal('SIGTERM'),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`still running ${STOP_LIMIT_MS} ms after SIGTERM`)), STOP_LIMIT_MS).unref()),
    ]);
    ms = exit.at - sentAt;
    expect(inFlight, 'requests in flight at the SIGTERM').toBeGreaterThan(0);
    expect(exit).toMatchObject({ code: 0, signal: null });
  } finally {
    load.stop();
  }
  const files = readdirSync(dir).sort();
  await load.done;
  expect(server.cli.output()).toContain('stopped; every acknowledged change is written');
  // Answers before the stop are 201s; requests that arrive during it are refused at the socket.
  expect(load.unexpected).toEqual([]);
  for (const [id, slug] of load.acked) mustExist.set(id, slug);
  // The stop folded the change log into db.json: the one file, parsed, holds everything.
  expect(files, 'db.json alone after the stop').toEqual(['db.json']);
  const inBase = (JSON.parse(readFileSync(db, 'utf8')) as { links: Record<string, LinkRecord> }).links;
  const notInBase = [...mustExist].filter(([id, slug]) => inBase[id]?.slug !== slug);
  expect(notInBase, `${label}: acknowledged links missing from db.json after SIGTERM`).toEqual([]);

  const again = await startServer(['--db', db, '--quiet'], dir, started);
  const after = await listLinks(again.url);
  const lost = [...mustExist].filter(([id, slug]) => after.get(id)?.slug !== slug);
  expect(lost, `${label}: acknowledged links missing after SIGTERM`).toEqual([]);
  expect((await again.signal('SIGTERM')).code).toBe(0);
  return { ms, files, load, ackedAfterSignal: load.acked.size - ackedAtSignal };
}

describe('SIGTERM during a create load', () => {
  it('exits 0 within 5 s and keeps every acknowledged link', async () => {
    await seedDb();
    const { ms, load, ackedAfterSignal } = await stopDuringLoad('term', (load) => whenAcked(load, 500));
    console.log(`[sigterm] plain: exited ${ms.toFixed(0)} ms after the signal; ${load.acked.size} acknowledged, ${ackedAfterSignal} of them after the signal; socket errors ${JSON.stringify(Object.fromEntries(load.networkErrors))}`);
  }, 60_000);

  it('exits 0 within 5 s while a compaction runs, finishing it, and keeps every acknowledged link', async () => {
    await seedDb();
    const prefilled = prefillLog(db, 'prefill', 4);
    const { ms, files, load, ackedAfterSignal } = await stopDuringLoad('term-compacting', () => whenInDir(dir, () => exists(`${db}.changes.old`), 40_000, 'compaction to start'), prefilled);
    // close() waits for the compaction, then folds what came after it: db.json alone (checked above).
    console.log(`[sigterm] compacting: exited ${ms.toFixed(0)} ms after the signal; ${load.acked.size} acknowledged, ${ackedAfterSignal} of them after the signal; files ${files.join(', ')}`);
  }, 60_000);
});
