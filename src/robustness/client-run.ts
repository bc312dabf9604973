// One run of the client's own test command: a child process with the mock's address in its
// environment, its output kept (the end of it) for the report, bounded in time. The command is run
// as given, without a shell (`-- sh -c '…'` for a shell line), in its own process group, so that a
// run past its bound is stopped with everything it started (npm test → vitest → workers).
import { spawn } from 'node:child_process';

/** Characters of a run's output kept for the report: its end, where test runners print failures. */
export const OUTPUT_TAIL_CHARS = 8_000;

export interface ClientRun {
  /** The exit code; null when it was stopped by a signal or ran past its bound. */
  exitCode: number | null;
  failed: boolean;
  /** Why it failed, in a few words: `exit 1`, `timed out after 600 s`, `cannot start: ENOENT`. */
  reason: string;
  /** The end of its stdout and stderr, interleaved as they came. */
  output: string;
  durationMs: number;
}

export interface ClientCommand {
  argv: readonly string[];
  /** The runner's own environment; the mock's address is added to it. */
  env: Record<string, string | undefined>;
  timeoutMs: number;
}

/** How long a stopped runner waits for its runs to end before it exits anyway. */
export const STOP_WAIT_MS = 2_000;

/** The process groups of the runs in progress, each with its leader's end, to stop them if the runner itself is stopped. */
const running = new Map<number, Promise<void>>();
/** Set by stopRunningClients: the runner is on its way out and starts no run more while it waits. */
let stopping = false;

/**
 * Stops every run in progress with everything it started, and resolves once each run's leader has
 * ended (at most STOP_WAIT_MS). A run leads its own process group (so that a timeout can stop all
 * of it), which also keeps it out of the terminal's Ctrl-C: the runner passes the signal on with
 * this. The wait lets this process reap its children: one that exits at once leaves them to the
 * system's init, which may not reap them for a while (a PID that still answers kill(pid, 0)).
 */
export async function stopRunningClients(): Promise<void> {
  stopping = true;
  const ended = [...running].map(([pid, exited]) => {
    stopGroup(pid);
    return exited;
  });
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)));
  await Promise.race([Promise.all(ended), bound]);
  clearTimeout(timer);
}

/** Runs the command against the mock at `mockUrl`; never rejects. */
export function runClient(command: ClientCommand, mockUrl: string): Promise<ClientRun> {
  const started = Date.now();
  const [file, ...args] = command.argv as [string, ...string[]];
  if (stopping) return Promise.resolve({ exitCode: null, failed: true, reason: 'not started: the runner is stopping', output: '', durationMs: 0 });
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    const keep = (chunk: string): void => {
      output = tail(output + chunk);
    };
    const child = spawn(file, args, { env: { ...command.env, MOCK_URL: mockUrl, SHORTLINK_MOCK_URL: mockUrl }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid !== undefined) running.set(child.pid, new Promise((exited) => child.once('exit', () => exited())));
    // Decoded per stream: a character split between two chunks is joined, not two U+FFFD.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup(child.pid);
    }, command.timeoutMs);
    const finish = (exitCode: number | null, reason: string): void => {
      clearTimeout(timer);
      if (child.pid !== undefined) running.delete(child.pid);
      resolve({ exitCode, failed: exitCode !== 0, reason, output, durationMs: Date.now() - started });
    };
    child.on('error', (error) => finish(null, `cannot start ${file}: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    // What the command left running (a server it did not stop) would hold its output open: the
    // group goes with its leader.
    child.on('exit', () => stopGroup(child.pid));
    child.on('close', (code, signal) => {
      if (timedOut) finish(null, `timed out after ${Math.round(command.timeoutMs / 1000)} s`);
      else finish(code, code === null ? `stopped by ${signal ?? 'a signal'}` : `exit ${code}`);
    });
  });
}

/** The last OUTPUT_TAIL_CHARS characters, never starting with the second half of a surrogate pair (the report is JSON and XML). */
function tail(text: string): string {
  const end = text.length > OUTPUT_TAIL_CHARS ? text.slice(-OUTPUT_TAIL_CHARS) : text;
  const first = end.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? end.slice(1) : end;
}

/** The whole group the child leads (detached), by its id. */
function stopGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
