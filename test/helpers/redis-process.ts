// One redis-server process, as redis-server.ts uses it: spawned in the foreground with its log on
// stdout, ready when it logs "Ready to accept connections" (printed once its port is open and its
// data loaded: no polling, no sleep), and waited for, bounded, when it ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { isExecutable } from '../setup/install-tools.js';

// Vitest ends its workers with SIGTERM (forks) or terminate() (threads), and neither runs 'exit'
// handlers: a server a test left running would outlive the run. On Linux util-linux's setpriv sets
// the parent-death signal and then execs redis-server (same pid), so the kernel SIGKILLs the server
// when the thread that started it ends, however it ends. Elsewhere only redis-server.ts's exit hook.
const SETPRIV = '/usr/bin/setpriv';
const HAS_SETPRIV = process.platform === 'linux' && isExecutable(SETPRIV);

/** How much of the server's log is kept for error messages. */
const OUTPUT_KEPT = 16_000;
/** SIGKILL cannot be refused; this only bounds the wait for the kernel and its pipes. */
export const KILL_WAIT_MS = 5_000;

export interface RedisProcess {
  pid: number;
  child: ChildProcess;
  /** Resolves when the process has ended, however. */
  exited: Promise<void>;
  /** The end of the server's log. */
  output: () => string;
}

/** Thrown when redis-server exits because another process holds its port: the caller may pick another. */
export class PortTakenError extends Error {}

/** A port the OS has just handed out on 127.0.0.1 and that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port from the OS'))));
    });
  });
}

/** Starts redis-server with `args`; resolves once it accepts connections, else rejects with its log and leaves nothing running. */
export function spawnRedis(binary: string, args: string[], limitMs: number): Promise<RedisProcess> {
  const child = HAS_SETPRIV
    ? spawn(SETPRIV, ['--pdeathsig', 'SIGKILL', binary, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (chunk: Buffer): void => {
    log = (log + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    const fail = (why: string, error?: Error): void => {
      cleanup();
      const message = (): string => `${binary} ${args.join(' ')}: ${why}\n${log}`;
      // Rejected only once the process is gone, so that the caller may remove its directory.
      void signalAndWait({ pid: child.pid ?? 0, child, exited, output: () => log }, 'SIGKILL', KILL_WAIT_MS).then((ended) => {
        const text = ended ? message() : `${message()}\n(pid ${child.pid} still running ${KILL_WAIT_MS} ms after SIGKILL)`;
        reject(/Address already in use/.test(log) ? new PortTakenError(text) : new Error(text, { cause: error }));
      });
    };
    const timer = setTimeout(() => fail(`not ready within ${limitMs} ms`), limitMs);
    const onData = (): void => {
      if (!/Ready to accept connections/.test(log)) return;
      cleanup();
      resolve({ pid: child.pid ?? 0, child, exited, output: () => log });
    };
    const onExit = (code: number | null, signal: string | null): void => fail(`exited (${signal ?? `code ${code}`}) before it was ready`);
    const onError = (error: Error): void => fail(error.message, error);
    function cleanup(): void {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    }
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** Sends `signal` and waits at most `limitMs` for the process to end; false if it is still running. */
export async function signalAndWait(proc: RedisProcess, signal: NodeJS.Signals, limitMs: number): Promise<boolean> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), limitMs)));
  const ended = await Promise.race([proc.exited.then(() => true as const), timedOut]);
  clearTimeout(timer);
  return ended;
}
