// npm run bench:contract-start: how long the CLI takes from spawn to its "listening on" line with
// --contract FILE of 1 MiB and 200 operations (bench/lib/big-contract.mjs, written once, the same
// bytes every run), against a plain start, BENCH_CONTRACT_START_RUNS rounds (default 5) alternating
// which goes first; the median and the spread (min–max) of each, and their ratio. Each start is on
// :memory: with --quiet. Writes nothing in the checkout (the contract goes to a temporary folder).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBigContract } from './lib/big-contract.mjs';
import { startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';

const CLI = fileURLToPath(new URL('../dist/src/cli.js', import.meta.url));
const RUNS = Number(process.env.BENCH_CONTRACT_START_RUNS ?? 5);
const START_LIMIT_MS = 180_000;
const log = (line) => console.error(`[contract-start] ${line}`);

async function listeningMs(extra) {
  const server = await startServer({ command: process.execPath, args: [CLI, '--port', '0', '--host', '127.0.0.1', '--quiet', '--db', ':memory:', ...extra] }, { timeoutMs: START_LIMIT_MS });
  try {
    return server.listeningMs;
  } finally {
    await stopServer(server);
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const summary = (values) => `median ${Math.round(median(values))} ms (min ${Math.round(Math.min(...values))}, max ${Math.round(Math.max(...values))}, n ${values.length})`;

const dir = mkdtempSync(join(tmpdir(), 'slm-contract-start-'));
stopChildrenOnSignals(() => rmSync(dir, { recursive: true, force: true }));
try {
  const file = join(dir, 'big-contract.yaml');
  const { bytes, operations } = writeBigContract(file);
  log(`${file}: ${bytes} bytes, ${operations} operations`);
  const plain = [];
  const big = [];
  for (let run = 1; run <= RUNS; run += 1) {
    const order = run % 2 ? ['plain', 'big'] : ['big', 'plain'];
    for (const which of order) (which === 'plain' ? plain : big).push(await listeningMs(which === 'plain' ? [] : ['--contract', file]));
    log(`run ${run}/${RUNS}: plain ${Math.round(plain.at(-1))} ms, --contract ${Math.round(big.at(-1))} ms`);
  }
  console.log(`start to "listening on" (spawn included), ${RUNS} rounds alternating:`);
  console.log(`  plain start:                       ${summary(plain)}`);
  console.log(`  --contract (${bytes} bytes, ${operations} operations): ${summary(big)}`);
  console.log(`  ratio of medians: ${(median(big) / median(plain)).toFixed(1)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
