// node bench/load-cost.mjs [--links 200000] [--dist dist,/other/checkout/dist] [--rounds 2]: the
// in-memory cost of a file store's start and snapshot at one size, without a server: JSON.parse of
// the db text, `new MockState` on what it gave (the passes a start makes after the parse), and
// LocalLinkStore#snapshot (its time and the longest wait of a turn of the event loop while it runs). Each build
// (--dist) runs in a child process of its own, alternating, so two builds compare in one run on a
// shared machine. Seeded by buildSeed from the first build, as `--reset` seeds it.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const { values } = parseArgs({ options: { links: { type: 'string', default: '200000' }, dist: { type: 'string', default: 'dist' }, rounds: { type: 'string', default: '2' }, child: { type: 'string' } } });
const links = Number(values.links);

async function measure(dist) {
  const load = (file) => import(pathToFileURL(resolve(dist, file)).href);
  const [{ buildSeed }, { MockState }, { LocalLinkStore }] = await Promise.all([load('fixtures/seed.js'), load('src/core/state.js'), load('src/store/file/local-link-store.js')]);
  const spec = { defaultDomain: 'sho.rt', accounts: [{ apiKey: 'demo-key', name: 'Demo', linkLimit: links * 2, customDomains: [], tags: 8, links }] };
  let t = performance.now();
  const text = JSON.stringify(buildSeed(20261122, spec));
  const seedMs = performance.now() - t;
  t = performance.now();
  const data = JSON.parse(text);
  const parseMs = performance.now() - t;
  const again = JSON.parse(text);
  t = performance.now();
  new MockState(again);
  const stateMs = performance.now() - t;
  const store = new LocalLinkStore(data, async () => {}, ':memory:');
  // The longest wait of a turn queued behind the snapshot: what any request would wait.
  let longestTurnMs = 0;
  let ticking = true;
  const ticks = (async () => {
    for (let last = performance.now(); ticking; ) {
      await new Promise((resolve) => setImmediate(resolve));
      const now = performance.now();
      longestTurnMs = Math.max(longestTurnMs, now - last);
      last = now;
    }
  })();
  await new Promise((resolve) => setImmediate(resolve));
  t = performance.now();
  const snapshot = await store.snapshot();
  const snapshotMs = performance.now() - t;
  await new Promise((resolve) => setImmediate(resolve));
  ticking = false;
  await ticks;
  const same = JSON.stringify(snapshot) === text;
  return { seedMs, parseMs, stateMs, stateToParse: stateMs / parseMs, snapshotMs, snapshotLongestTurnMs: longestTurnMs, snapshotSame: same };
}

if (values.child) {
  process.stdout.write(JSON.stringify(await measure(values.child)));
} else {
  const round = (n) => Math.round(n * 100) / 100;
  for (let r = 0; r < Number(values.rounds); r += 1) {
    for (const dist of values.dist.split(',')) {
      const out = execFileSync(process.execPath, ['--max-old-space-size=8192', new URL(import.meta.url).pathname, '--links', String(links), '--child', dist], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const row = Object.fromEntries(Object.entries(JSON.parse(out)).map(([k, v]) => [k, typeof v === 'number' ? round(v) : v]));
      console.log(JSON.stringify({ round: r + 1, dist, links, ...row }));
    }
  }
}
