// The "Shared state on Redis" section of bench/RESULTS.md, from results.redis (bench/lib/redis-rounds.mjs),
// with the targets: one instance on Redis at >= 80% of the file store's create throughput,
// p99 <= 1.5x the file store's; and --workers 2 read against one worker.
import { summarizeRounds } from './summary.mjs';

const n = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–');
const pct = (value) => (Number.isFinite(value) ? `${Math.round(value * 100)}%` : '–');
const times = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');

export function redisSection(results, table) {
  const redis = results.redis;
  if (!redis) return '## Shared state on Redis\n\nNot measured in this run (no 1,000-link store, or an older run).\n';
  if (redis.skipped) return `## Shared state on Redis\n\nNot measured: ${redis.skipped}.\n`;
  const rows = Object.entries(redis.workloads).map(([workload, rounds]) => {
    const [file, shared, bare] = [rounds.file, rounds.redis, rounds.baseline].map(summarizeRounds);
    return { workload, file, shared, bare, ofFile: shared.reqPerSec / file.reqPerSec, ofBare: shared.reqPerSec / bare.reqPerSec, p99OfFile: shared.p99 / file.p99 };
  });
  const main = table(
    ['workload', 'req/s redis / file / bare', 'redis ÷ file', 'redis ÷ bare', 'p99 ms redis / file', 'p99 redis ÷ file'],
    rows.map((r) => [r.workload, `${n(r.shared.reqPerSec)} / ${n(r.file.reqPerSec)} / ${n(r.bare.reqPerSec)}`, pct(r.ofFile), pct(r.ofBare), `${r.shared.p99} / ${r.file.p99}`, times(r.p99OfFile)]),
  );
  const one = summarizeRounds(redis.workers.one);
  const two = summarizeRounds(redis.workers.two);
  const create = rows.find((r) => r.workload === 'create');
  const verdict = (ok) => (ok === undefined ? 'not measured' : ok ? '**PASS**' : '**FAIL**');
  const targetRows = [
    ['create on Redis ≥ 80% of the file store', create ? pct(create.ofFile) : '–', verdict(create && create.ofFile >= 0.8)],
    ['create p99 on Redis ≤ 1.5× the file store', create ? times(create.p99OfFile) : '–', verdict(create && create.p99OfFile <= 1.5)],
  ];
  return `## Shared state on Redis

One mock instance with \`--db redis://\` (Redis ${redis.redis}, a prefix seeded per round) against the
same mock on its durable file store and against bare Express, alternating round by round, at
${n(redis.links)} links.

${main}

${table(['target', 'measured', 'verdict'], targetRows)}

\`--workers 2\` against one worker, both on Redis, \`create\`: ${n(two.reqPerSec)} against ${n(one.reqPerSec)} req/s
(${pct(two.reqPerSec / one.reqPerSec)}), p99 ${two.p99} against ${one.p99} ms. On this machine the two cores are
shared by the load generator, Redis and the workers, so a second worker has little CPU to gain: read
this as "the workers serve one port correctly", not as how the mock scales on a machine with spare cores.
`;
}
