// Alternating starts of two builds on one db file: the time from spawn until the server listens,
// and its RSS then, each start on a fresh copy of the file (a start may write to it). For a change
// to the start (issue 40) measured against the build before it, in turns on the same machine.
//   node bench/start-ab.mjs <db.json> <fixtures.json> <dirA> <dirB> [rounds=3]
// dirA and dirB are built checkouts (dist/src/cli.js in each). Every server is stopped by its own PID.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { memoryOf, startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';

const [db, fixtures, a, b, rounds = '3'] = process.argv.slice(2);
if (!db || !fixtures || !a || !b) throw new Error('usage: node bench/start-ab.mjs <db.json> <fixtures.json> <dirA> <dirB> [rounds]');
const tmp = mkdtempSync(join(tmpdir(), 'slm-start-ab-'));
stopChildrenOnSignals(() => rmSync(tmp, { recursive: true, force: true }));
const times = new Map([[a, []], [b, []]]);
try {
  for (let round = 0; round < Number(rounds); round += 1) {
    for (const dir of round % 2 === 0 ? [a, b] : [b, a]) {
      const copy = join(tmp, 'db.json');
      copyFileSync(db, copy);
      const args = [join(resolve(dir), 'dist/src/cli.js'), '--port', '0', '--host', '127.0.0.1', '--quiet', '--durability', 'durable', '--db', copy, '--fixtures', fixtures];
      const server = await startServer({ command: process.execPath, args }, { timeoutMs: 900_000, cwd: resolve(dir) });
      const rss = Math.round(memoryOf(server.pid)?.rss ?? 0);
      times.get(dir).push(Math.round(server.listeningMs));
      console.log(`${dir}: listening after ${Math.round(server.listeningMs)} ms, RSS ${rss} MiB`);
      await stopServer(server, 60_000);
      rmSync(copy, { force: true });
    }
  }
  for (const [dir, list] of times) console.log(`${dir}: ${list.join(' / ')} ms`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
