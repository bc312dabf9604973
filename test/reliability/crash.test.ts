// kill -9 in the middle of a create load, four times on the same db at four different moments
// (plain appends, the instant the log is set aside for compaction, halfway through writing the
// compacted file, after a compaction): every restart must load the file, and every link the
// clients were answered 201 for must be there. Acknowledgements are counted from the client side.
// Then kill -9 in the middle of a snapshot restore and of a reset: the restart holds the state
// before it or the state after it, exactly, never a mix. (Every crash point of a reset, restore and
// compaction is also reproduced file by file, deterministically, in test/store/crash-points.test.ts.)
import { closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { createLoad, exists, listLinks, seededRandom, send, startServer, stopAll, whenAcked, whenInDir, type Answer, type Load, type Server } from './helpers.js';
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
  // Killed too, not stopped: a clean stop folds the logs into db.json, and each round must start
  // from the files the last kill left (the last one from a compaction cut short). It wrote nothing.
  expect((await again.signal('SIGKILL')).signal).toBe('SIGKILL');
  return { moment, filesAtKill, load, inFlightAtKill };
}

const COMPACTING_ATTEMPTS = 3;

/** One try at killing the process while it writes the compacted file, about half way through. */
async function compactingRound(attempt: number): Promise<Round> {
  for (const [id, slug] of prefillLog(db, `prefill-b${attempt}`, 2 + attempt * 100)) mustExist.set(id, slug);
  const baseInode = inode();
  const roundStart = Date.now();
  // The compacted file ends up about as large as the base file and both logs together.
  const half = Math.floor([db, `${db}.changes`, oldLog()].reduce((sum, file) => sum + (exists(file) ? statSync(file).size : 0), 0) / 2);
  return killRound(`compacting${attempt}`, async () => {
    let seen = '';
    await whenInDir(
      dir,
      () => {
        // mtime: an earlier round's cut-short .compacting may still lie there; only this round's counts.
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
    // The kill can come too late (the compaction finished between the trigger and the signal):
    // that round still checks every acknowledged link, and the next attempt tries the window again.
    const attempts: string[] = [];
    for (let attempt = 1; attempt <= COMPACTING_ATTEMPTS; attempt += 1) {
      const round = await compactingRound(attempt);
      const hit = /bytes/.test(round.moment) && ['db.json.compacting', 'db.json.changes.old'].every((file) => round.filesAtKill.includes(file));
      attempts.push(`${round.moment}; files: ${round.filesAtKill.join(', ')}`);
      console.log(`[crash] compacting, attempt ${attempt}: ${round.load.acked.size} acknowledged; ${attempts.at(-1)}`);
      if (hit) return;
    }
    expect.fail(`the kill missed the compaction's write ${COMPACTING_ATTEMPTS} times:\n${attempts.join('\n')}`);
  }, 90_000 * COMPACTING_ATTEMPTS);

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
    // The .compacting the previous round's kill left was removed before this round's first write.
    expect(round.filesAtKill).toEqual(['db.json', 'db.json.changes']);
    console.log(`[crash] after-compaction: ${round.load.acked.size} acknowledged; ${mustExist.size} links checked in all`);
  }, 90_000);
});

/** One admin POST on its own connection; rejects with the socket error when the process dies. */
function adminPost(url: string, path: string): Promise<Answer> {
  const agent = new http.Agent({ keepAlive: false });
  return send(agent, url, { method: 'POST', path }).finally(() => agent.destroy());
}

const sortedIds = (links: Map<string, unknown>): string[] => [...links.keys()].sort();

/** The generation a db file or log names near its start, for the round's report. */
function generationOf(file: string): string {
  if (!exists(file)) return 'none (no file)';
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(200);
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8');
    return /"generation": ?(\d+)/.exec(text)?.[1] ?? 'none';
  } finally {
    closeSync(fd);
  }
}

/**
 * Sends `path` (a reset or a restore) to a server on the db, SIGKILLs it when `trigger` sees its
 * moment, restarts it, and returns which whole state the restart holds: 'before' or 'after'.
 * Anything else (a mix) fails here.
 */
async function killReplace(label: string, path: string, stateAfter: string[], trigger: () => Promise<string>): Promise<'before' | 'after'> {
  const server = await startServer(['--db', db, '--quiet'], dir, started);
  const stateBefore = sortedIds(await listLinks(server.url));
  expect(stateBefore).not.toEqual(stateAfter);
  const answer = adminPost(server.url, path).then(
    (res) => `answered ${res.status}`,
    (error: NodeJS.ErrnoException) => `no answer (${error.code ?? error.message})`,
  );
  const moment = await trigger();
  expect((await server.signal('SIGKILL')).signal).toBe('SIGKILL');
  const filesAtKill = readdirSync(dir).sort();
  const generations = `db.json of generation ${generationOf(db)}, ${['changes', 'changes.old'].map((log) => `.${log} of ${generationOf(`${db}.${log}`)}`).join(', ')}`;
  const again = await startServer(['--db', db, '--quiet'], dir, started);
  const state = sortedIds(await listLinks(again.url));
  const which = state.join() === stateBefore.join() ? 'before' : state.join() === stateAfter.join() ? 'after' : 'a mix';
  console.log(`[crash] ${label}: killed when ${moment}, the request ${await answer}; files: ${filesAtKill.join(', ')} (${generations}); the restart holds the state ${which} it`);
  expect(which, `${label}: ${state.length} links after the restart, ${stateBefore.length} before the kill, ${stateAfter.length} in the new state`).not.toBe('a mix');
  expect((await again.signal('SIGTERM')).code).toBe(0);
  return which as 'before' | 'after';
}

describe('kill -9 during a snapshot restore and a reset', () => {
  let bigState: string[];
  let seededState: string[];

  it('never mixes two states when killed halfway through writing the restored db.json', async () => {
    // The state the rounds above built (tens of thousands of links) saved as a snapshot; a reset;
    // a few creates on the seeded state; then the big snapshot restored, killed while it is written.
    const server = await startServer(['--db', db, '--quiet'], dir, started);
    bigState = sortedIds(await listLinks(server.url));
    expect((await adminPost(server.url, '/__admin/snapshots/big')).status).toBe(201);
    expect((await adminPost(server.url, '/__admin/reset')).status).toBe(200);
    seededState = sortedIds(await listLinks(server.url));
    const load = createLoad(server.url, { workers: 4, maxRequests: 40, maxMs: 20_000, label: 'after-reset' });
    await load.done;
    expect(load.acked.size).toBe(40);
    expect((await server.signal('SIGTERM')).code).toBe(0);
    const snapshotBytes = statSync(join(dir, 'snapshots', 'big.json')).size;
    const replacing = `${db}.replacing`;
    await killReplace('restore', '/__admin/snapshots/big/restore', bigState, async () => {
      let seen = '';
      // The snapshot file is indented JSON, larger than the db file it becomes: a quarter of it is
      // well inside the write.
      const partWritten = (): boolean => {
        const size = exists(replacing) ? statSync(replacing).size : 0;
        if (size > snapshotBytes / 4) seen = `${replacing} was ${size} bytes`;
        return seen !== '';
      };
      await whenInDir(dir, partWritten, 40_000, 'the restored db.json to be part written');
      return seen;
    });
  }, 120_000);

  it('never mixes two states when killed the instant the reset db.json is renamed into place', async () => {
    const baseInode = inode();
    await killReplace('reset', '/__admin/reset', seededState, async () => {
      await whenInDir(dir, () => inode() !== baseInode, 40_000, 'the new db.json to be renamed into place');
      return 'db.json had just been replaced';
    });
  }, 120_000);
});
