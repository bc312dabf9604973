// BENCH_PEERS=1: the create workload against Stoplight Prism 5.14.2 (`prism mock openapi.yaml`),
// alternating with the bare Express baseline, when Prism is installed. It is an optional peer,
// never a dependency: `npm i --no-save @stoplight/prism-cli@5.14.2` (BENCH_PRISM_BIN overrides).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { measureRound, warmUp } from './measure.mjs';
import { baselineCommand, ROOT, startServer, stopServer, track } from './processes.mjs';

export const PRISM_VERSION = '5.14.2';
const INSTALL = `npm i --no-save @stoplight/prism-cli@${PRISM_VERSION}`;

export async function runPeers(settings, log) {
  if (!settings.peers) return { prism: { status: 'not run (set BENCH_PEERS=1)' } };
  const prism = findPrism();
  if (!prism) {
    const reason = `Stoplight Prism is not installed (npx --no-install prism failed); skipped. To include it: ${INSTALL}`;
    log(`BENCH_PEERS=1: ${reason}`);
    return { prism: { status: 'skipped', reason } };
  }
  log(`BENCH_PEERS=1: Prism ${prism.version} (${prism.command} ${prism.args.join(' ')}), create workload`);
  const rounds = { prism: [], baseline: [] };
  for (let round = 1; round <= settings.rounds; round += 1) {
    rounds.prism.push(await prismRound(prism, settings));
    rounds.baseline.push(await baselineRound(settings));
    log(`prism create round ${round}: ${Math.round(rounds.prism.at(-1).reqPerSec)} req/s | baseline ${Math.round(rounds.baseline.at(-1).reqPerSec)} req/s`);
  }
  return { prism: { status: 'measured', version: prism.version, command: `prism mock openapi.yaml -p <port> -h 127.0.0.1 -v warn -m false`, rounds } };
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

async function baselineRound(settings) {
  let server;
  try {
    server = await startServer(baselineCommand());
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

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
