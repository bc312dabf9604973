// Starting and stopping the servers under test, and reading their memory. Every child is started
// here and stopped by its own PID (child.kill); callers stop it in a finally block.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
const BASELINE = fileURLToPath(new URL('../baseline-server.mjs', import.meta.url));
const ELD_PRELOAD = fileURLToPath(new URL('./eld-preload.mjs', import.meta.url));
const LISTENING = /listening on (http:\/\/\S+)/;

/** The mock on a db file: `--reset` seeds it; without, it opens the prepared file. */
export function mockCommand({ db, fixtures, reset = false }) {
  const args = ['--import', ELD_PRELOAD, CLI, '--port', '0', '--host', '127.0.0.1', '--quiet', '--durability', 'durable', '--db', db, '--fixtures', fixtures];
  return { command: process.execPath, args: reset ? [...args, '--reset'] : args };
}

/** `appServer`: the same app served by the mock's createHttpServer instead of app.listen. */
export function baselineCommand({ appServer = false, validator = false } = {}) {
  return { command: process.execPath, args: ['--import', ELD_PRELOAD, BASELINE, ...(appServer ? ['--app-server'] : []), ...(validator ? ['--validator'] : [])] };
}

/**
 * Spawns a server and resolves once it printed "listening on <url>" (within timeoutMs), with
 * the time that took. The child has an IPC channel for the event-loop-delay preload.
 */
export function startServer({ command, args }, { timeoutMs = 60_000, cwd = ROOT } = {}) {
  const started = performance.now();
  const child = track(spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }));
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${why}; output:\n${output.slice(-2000)}`));
    };
    const timer = setTimeout(() => fail(`no "listening on" line within ${timeoutMs} ms`), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = LISTENING.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume();
      child.off('exit', onExit);
      resolve({ child, pid: child.pid, url: match[1], listeningMs: performance.now() - started, started, output: () => output });
    };
    const onExit = (code) => fail(`exited with code ${code} before listening`);
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', onExit);
    child.once('error', (error) => fail(error.message));
  });
}

const children = new Set();

/** Remembers a child this harness started until it exits, so an interrupted run can stop it. */
export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Ctrl-C / SIGTERM / a crash of the harness: kill every child it started (by PID), clean up, exit. */
export function stopChildrenOnSignals(cleanUp = () => {}) {
  const killAll = () => {
    for (const child of children) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      killAll();
      cleanUp();
      process.exit(130);
    });
  }
}

/** SIGTERM (the mock flushes and exits), SIGKILL after graceMs. Resolves when it is gone. */
export async function stopServer(server, graceMs = 15_000) {
  const child = server?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Polls GET <url>/__admin/health until a 200 (bounded); resolves ms since the spawn. */
export async function firstHealthyMs(server, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    try {
      const response = await fetch(`${server.url}/__admin/health`);
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - server.started;
    } catch {
      // not answering yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${server.url}/__admin/health did not answer 200 within ${timeoutMs} ms`);
}

/** VmRSS and VmHWM (peak) of a process in MiB, from /proc/<pid>/status; null when gone. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Asks the preload for the event-loop delay since the last reset (bounded wait). */
export function eventLoopDelay(server, cmd = 'read', timeoutMs = 2000) {
  const child = server.child;
  if (!child.connected) return Promise.resolve(null);
  if (cmd === 'reset') {
    child.send({ cmd: 'reset' });
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (!message?.eld) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message.eld);
    };
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      resolve(null);
    }, timeoutMs);
    child.on('message', onMessage);
    child.send({ cmd: 'read' });
  });
}

/** A port the OS has just handed out on 127.0.0.1 and that nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
