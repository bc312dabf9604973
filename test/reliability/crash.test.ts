// kill -9 in the middle of a create load, four times on the same db at four different moments
// (plain appends, the instant the log is set aside for compaction, halfway through writing the
// compacted file, after a compaction): every restart must load the file, and every link the
// clients were answered 201 for must be there. Acknowledgements are counted from the client side.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoad, exists, listLinks, seededRandom, startServer, stopAll, whenAcked, whenInDir, type Load, type Server } from './helpers.js';
import { prefillLog } from './prefill.js';

const WORKERS = 20;
const started: Server[] = [];
let dir: string;
let db: string;
/** Every link that must survive: acknowledged (201) or written to the log by the test itself. */
const mustExist = new Map<string, string>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slm-crash-'));
  db = join(dir, 'db.json');
  // Seed the db once, then stop cleanly: every round below starts from a file that exists.
  const first = await startServer(['--db', db, '--quiet'], dir, started);
  expect((await first.signal('SIGTERM')).code).toBe(0);
});

afterAll(async () => {
  await stopAll(started);
  rmSync(dir, { recursive: true, force: true });
});

interface Round {
  /** What moment the kill hit, as the trigger saw it. */
  moment: string;
  /** The db directory right after the process died. */
  filesAtKill: string[];
  load: Load;
  inFlightAtKill: number;
}

/**
 * Starts the CLI on the shared db, runs a create load from WORKERS client loops, waits for
 * `trigger` (armed before the first request), SIGKILLs the process with requests in flight,
 * restarts it on the same db and checks what survived.
 */
async function killRound(label: string, trigger: (load: Load) => Promise<string>): Promise<Round> {
  const server = await startServer(['--db', db, '--quiet'], dir, started);
  const before = await listLinks(server.url);
  const load = createLoad(server.url, { workers: WORKERS, maxRequests: 40_000, maxMs: 40_000, label });
  let moment: string;
  let inFlightAtKill: number;
  try {
    moment = await trigger(load);
    inFlightAtKill = load.inFlight();
    const exit = await server.signal('SIGKILL');
    expect(exit.signal).toBe('SIGKILL');
  } finally {
    load.stop();
  }
  const filesAtKill = readdirSync(dir).sort();
  await load.done;
  // Before the kill every answer was a 201; after it, the clients only see socket errors.
  expect(load.unexpected).toEqual([]);
  expect(inFlightAtKill, 'requests in flight when the process was killed').toBeGreaterThan(0);

  // The restart must load the file (startServer rejects when the CLI exits instead).
  const again = await startServer(['--db', db, '--quiet'], dir, started);
  const after = await listLinks(again.url);
  for (const [id, slug] of load.acked) mustExist.set(id, slug);
  const lost = [...mustExist].filter(([id, slug]) => after.get(id)?.slug !== slug);
  expect(lost, `${label}: acknowledged links missing after kill -9 at "${moment}" (files: ${filesAtKill.join(', ')})`).toEqual([]);
  expect([...before.keys()].filter((id) => !after.has(id)), 'links present before the round and gone after it').toEqual([]);
  // Creates the process wrote but never answered (at most one per client loop) may or may not be there.
  const unacknowledged = [...after.keys()].filter((id) => !before.has(id) && !load.acked.has(id));
  expect(unacknowledged.length).toBeLessThanOrEqual(WORKERS);
  expect((await again.signal('SIGTERM')).code).toBe(0);
  return { moment, filesAtKill, load, inFlightAtKill };
}

const compacting = (): string => `${db}.compacting`;
const oldLog = (): string => `${db}.changes.old`;
const inode = (): number => statSync(db).ino;

describe('kill -9 during a create load', () => {
  it('loses no acknowledged link when killed among plain appends', async () => {
    // A seeded, arbitrary moment: after 300 to 900 acknowledgements.
    const round = await killRound('plain', async (load) => {
      const at = 300 + Math.floor(seededRandom(20261122)() * 600);
      await whenAcked(load, at);
      return `after ${at} acknowledgements`;
    });
    expect(round.filesAtKill).toEqual(['db.json', 'db.json.changes']);
    console.log(`[crash] plain: ${round.load.acked.size} acknowledged, ${round.inFlightAtKill} in flight at the kill`);
  }, 90_000);

  it('loses no acknowledged link when killed the instant compaction sets the log aside', async () => {
    for (const [id, slug] of prefillLog(db, 'prefill-a', 1)) mustExist.set(id, slug);
    const round = await killRound('rotation', async () => {
      await whenInDir(dir, () => exists(oldLog()), 40_000, `${oldLog()} to appear`);
      return 'the change log was just renamed to .changes.old';
    });
    expect(round.filesAtKill, 'the kill hit the compaction window').toContain('db.json.changes.old');
    console.log(`[crash] rotation: ${round.load.acked.size} acknowledged; files at the kill: ${round.filesAtKill.join(', ')}`);
  }, 90_000);

  it('loses no acknowledged link when killed halfway through writing the compacted file', async () => {
    for (const [id, slug] of prefillLog(db, 'prefill-b', 2)) mustExist.set(id, slug);
    const baseInode = inode();
    const roundStart = Date.now();
    // The compacted file ends up about as large as the base file and both logs together.
    const half = Math.floor([db, `${db}.changes`, oldLog()].reduce((sum, file) => sum + (exists(file) ? statSync(file).size : 0), 0) / 2);
    const round = await killRound('compacting', async () => {
      let seen = '';
      await whenInDir(
        dir,
        () => {
          // mtime: the previous round's cut-short .compacting may still lie there; only this round's counts.
          const file = exists(compacting()) ? statSync(compacting()) : undefined;
          if (file && file.mtimeMs > roundStart && file.size > half) seen = `${compacting()} was ${file.size} bytes (about half of the data)`;
          else if (inode() !== baseInode) seen = 'compaction had already finished (the kill missed the write)';
          return seen !== '';
        },
        40_000,
        'the compacted file to be half written',
      );
      return seen;
    });
    expect(round.moment).toMatch(/bytes/);
    expect(round.filesAtKill).toEqual(expect.arrayContaining(['db.json.compacting', 'db.json.changes.old']));
    console.log(`[crash] compacting: ${round.load.acked.size} acknowledged; ${round.moment}; files: ${round.filesAtKill.join(', ')}`);
  }, 90_000);

  it('loses no acknowledged link when killed after a compaction finished (one cut short before it)', async () => {
    // The previous round left .changes.old behind: this compaction first appends the new log to it.
    expect(exists(oldLog())).toBe(true);
    for (const [id, slug] of prefillLog(db, 'prefill-c', 3)) mustExist.set(id, slug);
    const baseInode = inode();
    const round = await killRound('after-compaction', async (load) => {
      await whenInDir(dir, () => inode() !== baseInode && !exists(oldLog()), 40_000, 'the compaction to finish');
      const at = load.acked.size + 200;
      await whenAcked(load, at);
      return `200 acknowledgements after a compaction finished (${at} in all)`;
    });
    expect(round.filesAtKill.filter((file) => file !== 'db.json.compacting')).toEqual(['db.json', 'db.json.changes']);
    console.log(`[crash] after-compaction: ${round.load.acked.size} acknowledged; ${mustExist.size} links checked in all`);
  }, 90_000);
});
