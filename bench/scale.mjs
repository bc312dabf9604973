// npm run bench:scale [--sizes 1000,100000,1000000] [--store file|redis] [--duration 30]
//                     [--timeout 900]: how the mock behaves as its store grows (issue 40). Per size:
// seeding, start, JSON.parse of the db file's text (same run), RSS, db file size, admin pages (first
// and deep), a snapshot, the create load, event-loop stalls of each phase, the stop and what it left
// (bench/lib/scale-file.mjs; on Redis, bench/lib/scale-redis.mjs). Writes bench/scale-result.json,
// bench/scale.md and bench/scale.svg, and re-renders bench/RESULTS.md, which includes scale.md.
// Bounded: every server start has --timeout seconds, every stop SIGKILLs past 60 s, every child is
// stopped by its own PID, and the temporary directory is removed at the end or on Ctrl-C.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stopChildrenOnSignals } from './lib/processes.mjs';
import { startBenchRedis } from './lib/redis-rounds.mjs';
import { fileSize } from './lib/scale-file.mjs';
import { redisSize } from './lib/scale-redis.mjs';
import { renderScale } from './lib/scale-report.mjs';
import { renderReport, RESULTS_JSON } from './report.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const RESULT = here('./scale-result.json');
const log = (line) => console.error(`[scale ${new Date().toISOString().slice(11, 19)}] ${line}`);

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,100000,1000000' },
    store: { type: 'string', default: 'file' },
    duration: { type: 'string', default: '30' },
    timeout: { type: 'string', default: '900' },
  },
});
const sizes = values.sizes.split(',').map(Number);
if (sizes.some((size) => !Number.isSafeInteger(size) || size < 25)) throw new Error(`--sizes: whole numbers of at least 25 links, comma-separated; got ${values.sizes}`);
if (!['file', 'redis'].includes(values.store)) throw new Error(`--store: file or redis; got ${values.store}`);
const settings = { durationSec: Number(values.duration), timeoutMs: Number(values.timeout) * 1000 };

const tmp = mkdtempSync(join(tmpdir(), 'shortlink-bench-scale-'));
stopChildrenOnSignals(() => rmSync(tmp, { recursive: true, force: true }));
const run = { date: new Date().toISOString(), loadAverage: loadavg().map((v) => Math.round(v * 100) / 100), command: `npm run bench:scale -- --store ${values.store} --sizes ${values.sizes} --duration ${values.duration}`, settings, rows: [] };
let redis;
try {
  if (values.store === 'redis') redis = await startBenchRedis(process.env.SHORTLINK_MOCK_REDIS_SERVER ?? '/usr/bin/redis-server', { persist: false });
  for (const links of sizes) {
    const dir = join(tmp, `size-${links}`);
    try {
      run.rows.push(values.store === 'file' ? await fileSize(links, dir, settings, log) : await redisSize(links, dir, redis, settings, log));
    } catch (error) {
      // Shown in the table, not hidden: one size that fails keeps the others' results.
      log(`${links}: FAILED: ${error.message.split('\n')[0]}`);
      run.rows.push({ links, store: values.store, error: error.message.split('\n')[0] });
    }
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const result = existsSync(RESULT) ? JSON.parse(readFileSync(RESULT, 'utf8')) : { runs: {} };
result.runs[values.store] = run;
writeFileSync(RESULT, `${JSON.stringify(result, null, 2)}\n`);
const { markdown, svg } = renderScale(result);
writeFileSync(here('./scale.md'), markdown);
writeFileSync(here('./scale.svg'), svg);
if (existsSync(RESULTS_JSON)) renderReport();
console.log(markdown);
