// npm run bench:cost: what the mock spends per create above the stack's ceiling, by part.
// The mock (this build, durable file store, full validation) and the ceiling (the bare Express
// baseline served by the mock's own createHttpServer: `baseline-server.mjs --app-server`) each run
// under `node --cpu-prof`: a warm-up at full load, then creates at one fixed rate, the same for
// both (BENCH_COST_RATE, default 1,500/s, below either's saturation, so neither waits on the
// other's queue), 20 connections, BENCH_COST_SECONDS (10). Each profile's samples inside the
// measured window are charged to parts (bench/lib/cost-categories.mjs) and divided by the
// requests answered. Writes bench/create-cost.md (kept in RESULTS.md by bench/report.mjs).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { CATEGORIES, costPerRequest } from './lib/cost-categories.mjs';
import { baselineCommand, ROOT, startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';

const RATE = Number(process.env.BENCH_COST_RATE ?? 1500);
const SECONDS = Number(process.env.BENCH_COST_SECONDS ?? 10);
const WARM_UP_SECONDS = 3;
const OUT = join(ROOT, 'bench', 'create-cost.md');
const CUTS_HEADING = '### Which cut bought what';
const CREATE = {
  method: 'POST',
  path: '/links',
  headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
  body: JSON.stringify({ destinationUrl: 'https://example.com/bench', domain: 'short.test', tags: [{ name: 'bench' }] }),
};
const run = (options) => new Promise((resolve, reject) => autocannon(options, (error, result) => (error ? reject(error) : resolve(result))));
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function profiled(name, command) {
  const dir = mkdtempSync(join(tmpdir(), `bench-cost-${name}-`));
  const server = await startServer({ command: command.command, args: ['--cpu-prof', '--cpu-prof-dir', dir, ...command.args] });
  let window;
  let result;
  try {
    await run({ url: server.url, connections: 20, duration: WARM_UP_SECONDS, requests: [CREATE] });
    const fromUs = nowUs();
    result = await run({ url: server.url, connections: 20, duration: SECONDS, overallRate: RATE, requests: [CREATE] });
    window = { fromUs, toUs: nowUs(), requests: result.requests.total };
  } finally {
    await stopServer(server);
  }
  const bad = Object.keys(result.statusCodeStats ?? {}).filter((code) => code !== '201');
  if (bad.length || result.errors) throw new Error(`${name}: answers other than 201 (${bad.join(', ')}) or ${result.errors} errors`);
  const profile = JSON.parse(readFileSync(join(dir, readdirSync(dir).find((file) => file.endsWith('.cpuprofile'))), 'utf8'));
  return { ...costPerRequest(profile, window), requests: window.requests, p99: result.latency.p99 };
}

stopChildrenOnSignals();
const db = join(mkdtempSync(join(tmpdir(), 'bench-cost-db-')), 'db.json');
const mock = await profiled('mock', { command: process.execPath, args: [join(ROOT, 'dist', 'src', 'cli.js'), '--port', '0', '--host', '127.0.0.1', '--quiet', '--db', db, '--reset'] });
const ceiling = await profiled('ceiling', baselineCommand({ appServer: true }));

const parts = [...CATEGORIES.map(([name]) => name), 'GC', 'other (idle-time work, timers, native)'];
const us = (value) => (value ?? 0).toFixed(1);
const rows = parts.map((part) => `| ${part} | ${us(mock.perRequest[part])} | ${us(ceiling.perRequest[part])} | ${us((mock.perRequest[part] ?? 0) - (ceiling.perRequest[part] ?? 0))} |`);
const text = `## What a create costs, by part

CPU per create, in µs, of the mock and of the stack's ceiling (bare Express with \`express.json()\`
and a fixed Link, served by the mock's own \`createHttpServer\`), each at the same fixed rate of
${RATE} creates/s for ${SECONDS} s after a ${WARM_UP_SECONDS} s warm-up, from a CPU profile (\`npm run bench:cost\`, ${new Date().toISOString().slice(0, 10)},
${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node.js ${process.version}). A sample is charged to the innermost frame of
its stack that belongs to a part, so Ajv called by the validator is validation and a socket write
called by \`res.json\` is the HTTP stack. The mock answered ${mock.requests} creates (p99 ${mock.p99} ms), the ceiling ${ceiling.requests} (p99 ${ceiling.p99} ms).
Profiling itself adds to every part alike; read the table for where the difference lies.

| part | mock | ceiling | added by the mock |
|---|---|---|---|
${rows.join('\n')}
| **busy CPU per create** | **${us(mock.busy)}** | **${us(ceiling.busy)}** | **${us(mock.busy - ceiling.busy)}** |
`;
// The list of which cut bought what is written by hand below the table: a new run keeps it.
const kept = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
const cuts = kept.indexOf(CUTS_HEADING);
writeFileSync(OUT, cuts === -1 ? text : `${text}\n${kept.slice(cuts)}`);
console.log(text);
console.log(`wrote ${OUT}; node bench/report.mjs puts it into bench/RESULTS.md`);
