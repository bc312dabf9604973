// BENCH_PEERS=1: the create workload against Stoplight Prism 5.14.2 (`prism mock openapi.yaml`),
// when Prism is installed, and against bare Express served the way the mock serves its app
// (createHttpServer), each alternating with the bare Express baseline. Prism is an optional peer,
// never a dependency: `npm i --no-save @stoplight/prism-cli@5.14.2` (BENCH_PRISM_BIN overrides).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureRound, warmUp } from './measure.mjs';
import { baselineCommand, freePort, ROOT, startServer, stopServer, track } from './processes.mjs';

export const PRISM_VERSION = '5.14.2';
const INSTALL = `npm i --no-save @stoplight/prism-cli@${PRISM_VERSION}`;
const NOT_RUN = { status: 'not run (set BENCH_PEERS=1)' };

export async function runPeers(settings, log) {
  if (!settings.peers) return { prism: NOT_RUN, appServer: NOT_RUN };
  const prism = findPrism();
  const skipped = `Stoplight Prism is not installed (npx --no-install prism failed); skipped. To include it: ${INSTALL}`;
  log(`BENCH_PEERS=1: ${prism ? `Prism ${prism.version} (${prism.command} ${prism.args.join(' ')})` : skipped}; bare Express on createHttpServer; create workload`);
  const rounds = { prism: [], appServer: [], baseline: [] };
  for (let round = 1; round <= settings.rounds; round += 1) {
    if (prism) rounds.prism.push(await prismRound(prism, settings));
    rounds.appServer.push(await baselineRound(settings, { appServer: true }));
    rounds.baseline.push(await baselineRound(settings));
    const prismLine = prism ? `prism ${Math.round(rounds.prism.at(-1).reqPerSec)} req/s | ` : '';
    log(`peers create round ${round}: ${prismLine}bare Express on createHttpServer ${Math.round(rounds.appServer.at(-1).reqPerSec)} req/s | baseline ${Math.round(rounds.baseline.at(-1).reqPerSec)} req/s`);
  }
  return {
    prism: prism
      ? { status: 'measured', version: prism.version, command: 'prism mock openapi.yaml -p <port> -h 127.0.0.1 -v warn -m false', rounds: { prism: rounds.prism, baseline: rounds.baseline } }
      : { status: 'skipped', reason: skipped },
    appServer: { status: 'measured', command: 'node bench/baseline-server.mjs --app-server', rounds: { appServer: rounds.appServer, baseline: rounds.baseline } },
  };
}

/** Prism's CLI as `node <bin>` (so the PID measured is Prism's), or via npx as a fallback. */
function findPrism() {
  const bin = process.env.BENCH_PRISM_BIN ?? localBin();
  const [command, args] = bin ? [process.execPath, [bin]] : ['npx', ['--no-install', 'prism']];
  try {
    const version = execFileSync(command, [...args, '--version'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return { command, args, version };
  } catch {
    return null;
  }
}

function localBin() {
  const dir = join(ROOT, 'node_modules', '@stoplight', 'prism-cli');
  if (!existsSync(join(dir, 'package.json'))) return undefined;
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const path = typeof bin === 'string' ? bin : bin?.prism;
  return path ? join(dir, path) : undefined;
}

async function prismRound(prism, settings) {
  const port = await freePort();
  let server;
  try {
    server = await startPrism(prism, port);
    await warmUp(server, 'create', settings.warmUpSec);
    return await measureRound(server, 'create', settings.durationSec);
  } finally {
    await stopServer(server);
  }
}

async function baselineRound(settings, options = {}) {
  let server;
  try {
    server = await startServer(baselineCommand(options));
    await warmUp(server, 'create', settings.warmUpSec);
    return await measureRound(server, 'create', settings.durationSec);
  } finally {
    await stopServer(server);
  }
}

/** Prism at warn level prints no "listening" line: wait until the port answers HTTP (bounded). */
async function startPrism(prism, port) {
  const args = [...prism.args, 'mock', join(ROOT, 'openapi.yaml'), '-p', String(port), '-h', '127.0.0.1', '-v', 'warn', '-m', 'false'];
  const child = track(spawn(prism.command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'ignore'] }));
  const server = { child, pid: child.pid, url: `http://127.0.0.1:${port}`, started: performance.now() };
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline && child.exitCode === null) {
    try {
      await (await fetch(`${server.url}/links`, { method: 'POST' })).arrayBuffer();
      return server;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`prism did not answer on ${server.url} within 60 s`);
}

