// Renders bench/results.json (written by run.mjs) and bench/soak-result.json (soak.mjs) into
// bench/RESULTS.md and bench/throughput.svg; returns the text printed to stdout. Run it alone
// (node bench/report.mjs) to re-render without measuring again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chartSvg } from './lib/svg.mjs';
import { coldStarts, median, summarize, summarizeRounds, targets } from './lib/summary.mjs';
import { PRISM_VERSION } from './lib/peers.mjs';
import { redisSection } from './lib/redis-report.mjs';
import { startSection } from './lib/start-report.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
export const RESULTS_JSON = here('./results.json');
export const SOAK_JSON = here('./soak-result.json');
export const START_JSON = here('./start-result.json');
const RESULTS_MD = here('./RESULTS.md');
const CHART = here('./throughput.svg');

const n = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en') : '—');
const ms = (value) => (Number.isFinite(value) ? String(Math.round(value * 10) / 10) : '—');
const pct = (value) => (Number.isFinite(value) ? `${Math.round(value * 100)}%` : '—');
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

export function renderReport() {
  const results = JSON.parse(readFileSync(RESULTS_JSON, 'utf8'));
  const soak = existsSync(SOAK_JSON) ? JSON.parse(readFileSync(SOAK_JSON, 'utf8')) : undefined;
  const start = existsSync(START_JSON) ? JSON.parse(readFileSync(START_JSON, 'utf8')) : undefined;
  const rows = summarize(results);
  const mainTable = table(
    ['links', 'workload', 'req/s mock / bare', 'ratio', 'p50 ms mock / bare', 'p99 ms mock / bare', 'p99 ratio', 'peak RSS MiB mock / bare', 'valid'],
    rows.map((r) => [n(r.links), r.workload, `${n(r.mock.reqPerSec)} / ${n(r.baseline.reqPerSec)}`, pct(r.throughputRatio), `${ms(r.mock.p50)} / ${ms(r.baseline.p50)}`, `${ms(r.mock.p99)} / ${ms(r.baseline.p99)}`, `${r.p99Ratio.toFixed(2)}×`, `${ms(r.mock.peakRss)} / ${ms(r.baseline.peakRss)}`, validity(r)]),
  );
  const targetTable = table(['target', 'measured', 'verdict'], targets(results, soak).map((t) => [t.target, t.value, `**${t.verdict}**`]));
  const createRows = rows.filter((r) => r.workload === 'create').sort((a, b) => a.links - b.links);
  if (createRows.length) writeFileSync(CHART, `${chartSvg(createRows, 'create workload: throughput and p99 against store size')}\n`);
  writeFileSync(RESULTS_MD, markdown(results, soak, start, rows, mainTable, targetTable, createRows.length > 0));
  return `${mainTable}\n\n${targetTable}\n\nwrote ${RESULTS_MD}${createRows.length ? ` and ${CHART}` : ''}`;
}

function validity(r) {
  if (r.mock.valid && r.baseline.valid) return 'yes';
  return `**INVALID**: ${[...r.mock.problems.map((p) => `mock ${p}`), ...r.baseline.problems.map((p) => `bare ${p}`)].join('; ')}`;
}

function markdown(results, soak, start, rows, mainTable, targetTable, chart) {
  const { machine, settings } = results;
  const env = `BENCH_DURATION=${settings.durationSec} BENCH_ROUNDS=${settings.rounds} BENCH_WARMUP=${settings.warmUpSec} BENCH_SIZES=${settings.sizes.join(',')} BENCH_WORKLOADS=${settings.workloads.join(',')}${settings.peers ? ' BENCH_PEERS=1' : ''}${settings.prismBin ? ` BENCH_PRISM_BIN=${settings.prismBin}` : ''}`;
  const workloads = Object.fromEntries(rows.map((r) => [r.workload, r]));
  return `# Benchmark results

Measured by \`npm run bench\` from ${results.startedAt} to ${results.finishedAt}; the tables below are
rendered from [\`results.json\`](results.json) (every round's raw numbers) by \`node bench/report.mjs\`.
Throughput and latency are always read as a **ratio to a bare Express 5 handler measured in the
same run**, alternating with the mock round by round: absolute numbers depend on the machine.

## Machine

${table(['CPU', 'cores', 'memory', 'OS', 'Node', 'db files on', 'load average at start (1/5/15 min)'], [[machine.cpu, machine.cores, `${machine.memoryGiB} GiB`, machine.os, machine.node, `${machine.dataFilesystem}${machine.dataFilesystem === 'tmpfs' ? ' (RAM: fdatasync costs nothing)' : ' (a real fdatasync)'}`, machine.loadAverageAtStart.join(' / ')]])}

The load generator (autocannon, in the harness process) and the server under test share these
${machine.cores} cores: the server gets one core for its event loop, autocannon most of the other, so
the bench alone keeps the 1-minute load average near 2. Sampled after each round, it ranged
${loadRange(results)} during this run${machine.loadAverageAtEnd ? ` (${machine.loadAverageAtEnd.join(' / ')} at the end)` : ''}; a figure well above 2 means other work shared the machine.

## Commands

\`\`\`sh
npm run bench          # = npm run build && node bench/run.mjs; this run: ${env}
npm run bench:soak     # = npm run build && node bench/soak.mjs (BENCH_SOAK_SECONDS=300 after a 30 s warm-up)
npm run bench:start    # = npm run build && node bench/cold-start.mjs (--version, --help, a start on 1,000 links; also run by npm run bench)
node bench/report.mjs  # re-render RESULTS.md and throughput.svg from results.json (+ soak-result.json, start-result.json)
\`\`\`

Servers, each started fresh for every round (\`<tmp>\` is a \`mkdtemp\` directory, removed at the end):

\`\`\`sh
# the mock: seeded once per store size, then every round starts on a fresh copy of that db
node --import bench/lib/eld-preload.mjs dist/src/cli.js --port 0 --host 127.0.0.1 --quiet --durability durable --db <tmp>/store-N/seed/db.json --fixtures <tmp>/store-N/fixtures-N.json --reset   # seed, then SIGTERM
node --import bench/lib/eld-preload.mjs dist/src/cli.js --port 0 --host 127.0.0.1 --quiet --durability durable --db <tmp>/store-N/round-<workload>-<k>/db.json --fixtures <tmp>/store-N/fixtures-N.json
# the baseline: bare Express 5 (the project's express) on plain app.listen, express.json(), fixed valid Link answers
node --import bench/lib/eld-preload.mjs bench/baseline-server.mjs
\`\`\`

## Method

- **Store sizes** ${settings.sizes.map((s) => s.toLocaleString('en')).join(', ')} links: a generated fixtures file gives \`demo-key\` all but the 20 links of the two other shipped accounts (\`other-key\` keeps its 15).
- **Rounds**: for each size and workload, ${settings.rounds} × (mock round, baseline round), each a fresh process: ${settings.warmUpSec} s unmeasured warm-up, then ${settings.durationSec} s measured at 50 connections (autocannon 9, keep-alive, loopback). The table shows **medians** over the rounds for req/s, p50 and p99, and the **maximum** of the peak RSS (VmRSS of the server's PID sampled every 200 ms during the measured load).
- **Durable mode, full validation**: the mock runs with its defaults (\`--durability durable\`: every 201/200/204 is sent after \`fdatasync\` of the change log; request *and* response validation on). The baseline validates nothing and writes nothing.
- **The HTTP server**: the mock's CLI serves its Express app through \`createHttpServer\` (\`src/http/server.ts\`: Node builds each request and response with the app's prototypes, so Express's per-request \`setPrototypeOf\` has nothing to change); the baseline is plain \`app.listen\`, the bare Express 5 the targets name. What the same server gives the baseline alone is the reference row of the Peers table (\`BENCH_PEERS=1\`).
- **Workloads**:
${Object.entries(workloadNotes()).filter(([name]) => workloads[name]).map(([name, note]) => `  - \`${name}\`: ${note}`).join('\n')}
- **Validity**: every status a workload does not expect, every connection error and timeout makes its row **INVALID** (shown, not hidden).
- **Event-loop stalls**, two ways: (1) in the server process, \`perf_hooks.monitorEventLoopDelay\` (resolution 5 ms) loaded with \`node --import bench/lib/eld-preload.mjs\` (nothing in \`src/\` changes), reset before and read after each measured load over the IPC channel; (2) an **outside proxy**: during each measured load a separate keep-alive connection sends a CORS preflight (\`OPTIONS /links\` with \`Origin\` and \`Access-Control-Request-Method: POST\`, answered by the mock's cors middleware, by Express itself in the baseline) every 10 ms and keeps the latencies. The proxy's maximum is an upper bound of a stall: it also includes waiting behind the 50 connections' requests. A preflight rather than \`GET /__admin/health\`: it is answered before authentication and routing, so its latency is the loop's and the queue's, not a route's work.
- **Write path**: after the main table, \`create\` runs again at 1,000 and at 100,000 links, alternating round by round (${settings.rounds} rounds each, same warm-up and duration), for the target that compares the two sizes: in the main table they run minutes apart, and the machine's speed drifts in between.
- **Cold start**: from \`spawn\` to the first \`200\` of \`GET /__admin/health\`, on a prepared db (no seeding), measured at every mock start; median and max.

${chart ? '![create workload: throughput and p99 against store size, mock and bare Express](throughput.svg)\n\n' : ''}## Results

${mainTable}

Status codes seen (all rounds): ${rows.map((r) => `${r.workload}@${n(r.links)} mock ${codes(r.mock.statuses)}, bare ${codes(r.baseline.statuses)}`).join('; ')}.

## Cold start and seeding

${table(['links', 'cold start median', 'cold start max', 'starts', 'seeding (first start, --reset)'], coldStarts(results).map((c) => [n(c.links), `${n(c.median)} ms`, `${n(c.max)} ms`, c.count, `${n(c.seedMs)} ms`]))}

One request at a time on an idle server (50 requests, 10 ms apart; latency p50 / max as the client sees it):

${table(['links', 'GET /__admin/health mock', 'GET /__admin/health bare', 'preflight probe mock', 'preflight probe bare'], coldStarts(results).map((c) => [n(c.links), idle(c.idleProbe.mock?.health), idle(c.idleProbe.baseline?.health), idle(c.idleProbe.mock?.preflight), idle(c.idleProbe.baseline?.preflight)]))}

## Event-loop delay and the outside stall proxy

${table(['links', 'workload', 'loop delay max ms mock / bare', 'probe max ms mock / bare', 'probe p99 ms mock / bare'], rows.map((r) => [n(r.links), r.workload, `${ms(r.mock.eldMax)} / ${ms(r.baseline.eldMax)}`, `${ms(r.mock.probeMax)} / ${ms(r.baseline.probeMax)}`, `${ms(probeP99(results, r, 'mock'))} / ${ms(probeP99(results, r, 'baseline'))}`]))}

Loop delay: \`monitorEventLoopDelay\` max inside the server, worst measured round. Probe: the outside proxy (worst round's max; median of the rounds' p99).

## Targets

${targetTable}

${soakSection(soak)}
${startSection(start)}
${redisSection(results, table)}
## Peers

${peersSection(results)}
${scaleResults()}${createCost()}${profileNotes()}`;
}

/** How the mock behaves as its store grows, written by npm run bench:scale (bench/scale.mjs) and kept in every render. */
function scaleResults() {
  const file = here('./scale.md');
  return existsSync(file) ? `\n${readFileSync(file, 'utf8')}` : '';
}

/** What a create costs by part, written by npm run bench:cost (bench/cost.mjs) and kept in every render. */
function createCost() {
  const file = here('./create-cost.md');
  return existsSync(file) ? `\n${readFileSync(file, 'utf8')}` : '';
}

/** The profile findings are written by hand in profile-notes.md and kept in every render. */
function profileNotes() {
  const file = here('./profile-notes.md');
  return existsSync(file) ? `\n${readFileSync(file, 'utf8')}` : '';
}

function workloadNotes() {
  return {
    create: 'POST /links as `demo-key`, `{"destinationUrl":"https://example.com/bench","domain":"short.test","tags":[{"name":"bench"}]}` (no slug: the mock generates one): a new link per request, so the store grows during a round. Expects 201.',
    mixed: 'per connection, in turn: POST /links → PUT /links/{the id just created} → DELETE /links/{id} (the id is carried with autocannon\'s `requests`/`onResponse`). Expects 201, 200, 204.',
    scenario: 'POST /links with `x-mock-scenario: link-limit-reached`: the forced error path (auth, scenario choice, request validation, forced 400 + response validation; nothing is written). Expects 400; the baseline answers a fixed 400 Error for the same request.',
    'read-heavy': 'per connection, 9 × `GET /__admin/links?account=other-key` then 1 × the create POST. The read is the admin API\'s only read of links; it reads the 15 links of a small account (a constant-size answer whatever the store holds, validated against the admin contract), because `demo-key`\'s list at 100,000 links would measure serialising 40 MB, not a read path. The baseline answers 15 fixed Links. Expects 200, 201.',
  };
}

function probeP99(results, row, server) {
  return median(results.sizes[row.links].workloads[row.workload][server].map((r) => r.probe?.p99 ?? Number.NaN));
}

function loadRange(results) {
  const loads = Object.values(results.sizes).flatMap((size) => Object.values(size.workloads).flatMap((w) => [...w.mock, ...w.baseline])).map((r) => r.load1).filter(Number.isFinite);
  return loads.length ? `from ${Math.min(...loads)} to ${Math.max(...loads)} (median ${median(loads)})` : 'unrecorded';
}

const idle = (probe) => (probe ? `${ms(probe.p50)} / ${ms(probe.max)} ms` : '—');
const codes = (statuses) => Object.entries(statuses).map(([code, count]) => `${code}×${count.toLocaleString('en')}`).join(' ') || 'none';

function soakSection(soak) {
  if (!soak) return '## RSS soak\n\nNot measured yet: `npm run bench:soak`.\n';
  return `## RSS soak

\`npm run bench:soak\` on ${soak.date}: mixed workload at 50 connections on a ${n(soak.links)}-link store, ${soak.warmUpSec} s warm-up, then ${soak.soakSec} s with the mock's RSS sampled every ${soak.sampleEverySec} s.
First ${soak.first} MiB, last ${soak.last} MiB, min ${soak.min} MiB, max ${soak.max} MiB (spread ${soak.spreadPct}% of the first sample); ${n(soak.reqPerSec)} req/s, statuses ${codes(soak.statuses)}${soak.valid ? '' : ` — **INVALID**: ${soak.problems.join('; ')}`}.
Samples (MiB): ${soak.samples.map((s) => s.rss).join(', ')}. 1-minute load average during the soak: ${Math.min(...soak.samples.map((s) => s.load1 ?? Number.NaN))} to ${Math.max(...soak.samples.map((s) => s.load1 ?? Number.NaN))}.
`;
}

function peersSection(results) {
  const prism = results.peers?.prism;
  const appServer = results.peers?.appServer;
  const install = `\`npm i --no-save @stoplight/prism-cli@${PRISM_VERSION}\`; it is not a dependency`;
  if (prism?.status !== 'measured' && appServer?.status !== 'measured') {
    return `Not run: \`BENCH_PEERS=1 npm run bench\` runs the create workload against \`prism mock openapi.yaml\` when Stoplight Prism ${PRISM_VERSION} is installed (${install}), and against bare Express on the mock's \`createHttpServer\`.`;
  }
  const rows = [];
  if (prism?.status === 'measured') rows.push(peerRow('Stoplight Prism ' + prism.version, prism.rounds.prism, prism.rounds.baseline));
  if (appServer?.status === 'measured') rows.push(peerRow('bare Express on `createHttpServer` (a reference, not a peer)', appServer.rounds.appServer, appServer.rounds.baseline));
  const baseline = (prism?.status === 'measured' ? prism : appServer).rounds.baseline;
  rows.push(peerRow('bare Express (`app.listen`, the baseline)', baseline, baseline));
  const prismNote = prism?.status === 'measured'
    ? `Stoplight Prism ${prism.version}: \`${prism.command}\`, stateless (answers from the contract's examples).`
    : `Stoplight Prism ${PRISM_VERSION} was skipped in this run, as it is not installed (${install}).`;
  return `The create workload, each server alternating round by round with the bare Express baseline. ${prismNote} The reference row is the baseline's own app served by the mock's \`createHttpServer\` (\`node bench/baseline-server.mjs --app-server\`): it shows how much of the mock's ratio that server alone accounts for.

${table(['server', 'req/s', 'ratio to bare', 'p50 ms', 'p99 ms', 'peak RSS MiB', 'valid'], rows)}`;
}

function peerRow(name, rounds, baselineRounds) {
  const r = summarizeRounds(rounds);
  const b = summarizeRounds(baselineRounds);
  return [name, n(r.reqPerSec), pct(r.reqPerSec / b.reqPerSec), ms(r.p50), ms(r.p99), ms(r.peakRss), r.valid ? 'yes' : `**INVALID**: ${r.problems.join('; ')}`];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(renderReport());
