// What a compaction costs at scale: a LogFileStore opened on a copy of a db file, N creates written
// to its change log (no compaction meanwhile), then the fold at close (the compaction a stop runs),
// timed by wall clock and CPU. Run it for two builds in turns to compare them:
//   node --max-old-space-size=6000 bench/compaction-cost.mjs <built checkout> <db.json> [creates=280000]
// (280,000 creates: the change log a 1,000,000-link db compacts at, COMPACT_LOG_SHARE.)
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [checkout, source, creates = '280000'] = process.argv.slice(2);
if (!checkout || !source) throw new Error('usage: node bench/compaction-cost.mjs <built checkout> <db.json> [creates]');
const { LogFileStore } = await import(join(resolve(checkout), 'dist/src/store/file/log-file-store.js'));
const tmp = mkdtempSync(join(tmpdir(), 'slm-compaction-cost-'));
try {
  const db = join(tmp, 'db.json');
  copyFileSync(source, db);
  const store = new LogFileStore(db, { durable: false, compactAfterBytes: 2 ** 40, closeCompactionMs: 600_000 });
  const data = await store.open();
  const template = data.links.values().next().value;
  const batch = [];
  for (let i = 0; i < Number(creates); i += 1) {
    const link = { ...template, id: `lnk_cost${String(i).padStart(12, '0')}`, slug: `cost${i}` };
    data.links.set(link.id, link);
    batch.push({ op: 'put-link', link });
    if (batch.length === 1000) await store.write(batch.splice(0));
  }
  if (batch.length) await store.write(batch.splice(0));
  const cpu = process.cpuUsage();
  const started = performance.now();
  await store.close();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  console.log(`${checkout}: ${data.links.size} links, the fold at close ${Math.round(wall)} ms wall, ${Math.round((used.user + used.system) / 1000)} ms CPU`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
