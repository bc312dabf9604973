// One store size of `npm run bench:scale` on the file store (bench/scale.mjs): seed with --reset,
// stop, time JSON.parse of the db file's text in a process of its own (bench/lib/scale-parse.mjs),
// restart on the file, read admin pages, save a snapshot, restore it, reset, run creates through a
// compaction (bench/lib/scale-ops.mjs), run the create load, stop, then check
// what the stop left: partial files, and the links on disk against every 201 the load was given.
// Every phase's longest event-loop stall comes from bench/lib/eld-preload.mjs (nothing in src/).
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { writeFixtures } from './fixtures.mjs';
import { measureRound } from './measure.mjs';
import { eventLoopDelay, memoryOf, mockCommand, startServer, stopServer } from './processes.mjs';
import { adminOps } from './scale-ops.mjs';
import { adminPages, timedStop } from './scale-phases.mjs';

const PARSER = fileURLToPath(new URL('./scale-parse.mjs', import.meta.url));
const PARSE_TIMEOUT_MS = 10 * 60_000;

export async function fileSize(links, dir, settings, log) {
  mkdirSync(dir, { recursive: true });
  const fixtures = writeFixtures(dir, links);
  const db = join(dir, 'db.json');
  const row = { links, store: 'file' };
  const seeding = await startServer(mockCommand({ db, fixtures, reset: true }), { timeoutMs: settings.timeoutMs });
  row.seedMs = seeding.listeningMs;
  row.rssAfterSeedMiB = memoryOf(seeding.pid)?.rss;
  row.seedStop = await timedStop(seeding, dir);
  log(`${links}: seeded in ${ms(row.seedMs)}, stopped in ${ms(row.seedStop.ms)}`);
  const parsed = await parseDb(db);
  Object.assign(row, { dbBytes: parsed.bytes, parseMs: parsed.parseMs, readMs: parsed.readMs, accountLinks: parsed.accountLinks });
  log(`${links}: db ${mib(parsed.bytes)} MiB, JSON.parse ${ms(parsed.parseMs)} (read ${ms(parsed.readMs)})`);
  const server = await startServer(mockCommand({ db, fixtures }), { timeoutMs: settings.timeoutMs });
  try {
    row.startMs = server.listeningMs;
    row.rssAfterStartMiB = memoryOf(server.pid)?.rss;
    log(`${links}: restarted in ${ms(row.startMs)}, RSS ${Math.round(row.rssAfterStartMiB)} MiB`);
    row.pages = await adminPages(server, parsed);
    log(`${links}: pages first ${ms(row.pages.first.ms)} deep ${ms(row.pages.deep?.ms)}`);
    // Creates at this store size, before the admin operations below: a restore or a reset leaves the
    // old state's garbage on the heap, which the load after them pays as well (it is kept too).
    const fresh = await measureRound(server, 'create', settings.durationSec);
    row.createFresh = { reqPerSec: fresh.reqPerSec, p99: fresh.p99, stallMs: fresh.eld?.max, valid: fresh.valid, problems: fresh.problems };
    log(`${links}: create before the admin operations ${Math.round(fresh.reqPerSec)} req/s, stall ${fresh.eld?.max} ms`);
    Object.assign(row, await adminOps(server, db, (line) => log(`${links}: ${line}`)));
    // The reset and the compaction's creates changed the count: the load's losses are counted from here.
    row.linksBeforeLoad = (await (await fetch(`${server.url}/__admin/health`)).json()).links;
    await eventLoopDelay(server, 'reset');
    const load = await measureRound(server, 'create', settings.durationSec);
    row.create = { reqPerSec: load.reqPerSec, p99: load.p99, stallMs: load.eld?.max, valid: load.valid, problems: load.problems, created: load.statuses['201'] ?? 0 };
    row.rssAfterLoadMiB = memoryOf(server.pid)?.rss;
    row.peakRssMiB = load.peakRss;
    log(`${links}: create ${Math.round(load.reqPerSec)} req/s, stall ${load.eld?.max} ms, RSS ${Math.round(row.rssAfterLoadMiB)} MiB`);
  } finally {
    row.stop = await timedStop(server, dir);
  }
  const after = await parseDb(db, '--count');
  // Acknowledged (201) links missing on disk after the stop. Negative: the last requests in flight,
  // answered after autocannon stopped counting, are on disk too (up to one per connection).
  row.lost = (row.linksBeforeLoad ?? parsed.links) + (row.create?.created ?? 0) - after.links;
  log(`${links}: stopped in ${ms(row.stop.ms)}; partial files ${row.stop.partial.join(', ') || 'none'}; acknowledged links missing ${Math.max(0, row.lost)}`);
  return row;
}

/** `--count`: the links only, read a line at a time (after the stop, a base can be past V8's longest string). */
async function parseDb(db, mode) {
  const args = mode ? [PARSER, mode, db] : [PARSER, db, 'demo-key'];
  const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: PARSE_TIMEOUT_MS, maxBuffer: 1 << 20 });
  return JSON.parse(stdout);
}

const ms = (value) => (Number.isFinite(value) ? `${Math.round(value)} ms` : '—');
const mib = (bytes) => Math.round(bytes / 1048576);
