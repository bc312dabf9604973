// One run of the client's own test command: a child process with the mock's address in its
// environment, its output kept (the end of it) for the report, bounded in time. The command is run
// as given, without a shell (`-- sh -c '…'` for a shell line), in its own process group, so that a
// run past its bound is stopped with everything it started (npm test → vitest → workers). A run
// ends when its command exits or its time is up, even if something outside its group still holds
// its output (PIPE_DRAIN_MS).
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
  /** Something outside its process group still held its output PIPE_DRAIN_MS after it ended (LEFT_HOLDING_OUTPUT). */
  heldOutput: boolean;
  durationMs: number;
}

export interface ClientCommand {
  argv: readonly string[];
  /** The runner's own environment; the mock's address is added to it. */
  env: Record<string, string | undefined>;
  timeoutMs: number;
  /** The mock's `--api-key`, given to the command as MOCK_API_KEY: the key its requests must send. */
  apiKey?: string | undefined;
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
 * `waitMs` is for tests.
 */
export async function stopRunningClients(waitMs = STOP_WAIT_MS): Promise<void> {
  stopping = true;
  const ended = [...running].map(([pid, exited]) => {
    stopGroup(pid);
    return exited;
  });
  let timer: NodeJS.Timeout | undefined;
  // setImmediate: a runner whose loop was held past the bound (a loaded machine) finds the timer
  // and the children's ends waiting together, and timers run before the poll that reaps children.
  // One poll more reaps every child that is already dead, instead of exiting and leaving them to init.
  const bound = new Promise<void>((resolve) => (timer = setTimeout(() => setImmediate(resolve), waitMs)));
  await Promise.race([Promise.all(ended), bound]);
  clearTimeout(timer);
}

/**
 * How long the pipes are still read once the command has exited (or its group was stopped at its
 * bound): what it wrote is already in them and is read at once. A process of another session
 * (`setsid`, a daemon) that still holds them past this is left alone, unread: it would otherwise
 * keep the run open for as long as it lives, past --timeout.
 */
export const PIPE_DRAIN_MS = 1_000;

/** Said of a run whose output was still held past PIPE_DRAIN_MS after it ended. */
export const LEFT_HOLDING_OUTPUT = 'left a process outside its group holding its output; stopped reading it';

/** Runs the command against the mock at `mockUrl`; never rejects. */
export function runClient(command: ClientCommand, mockUrl: string): Promise<ClientRun> {
  const started = Date.now();
  const [file, ...args] = command.argv as [string, ...string[]];
  if (stopping) return Promise.resolve({ exitCode: null, failed: true, reason: 'not started: the runner is stopping', output: '', heldOutput: false, durationMs: 0 });
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drain: NodeJS.Timeout | undefined;
    let done = false;
    const keep = (chunk: string): void => {
      output = tail(output + chunk);
    };
    const child = spawn(file, args, { env: clientEnv(command, mockUrl), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid !== undefined) running.set(child.pid, new Promise((exited) => child.once('exit', () => exited())));
    // Decoded per stream: a character split between two chunks is joined, not two U+FFFD.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const finish = (exitCode: number | null, reason: string, heldOutput = false): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(drain);
      if (child.pid !== undefined) running.delete(child.pid);
      resolve({ exitCode, failed: exitCode !== 0, reason, output, heldOutput, durationMs: Date.now() - started });
    };
    const conclude = (held: boolean): void => {
      const code = timedOut ? null : (ended?.code ?? null);
      const why = timedOut ? `timed out after ${Math.round(command.timeoutMs / 1000)} s` : code === null ? `stopped by ${ended?.signal ?? 'a signal'}` : `exit ${code}`;
      finish(code, held ? `${why}; ${LEFT_HOLDING_OUTPUT}` : why, held);
    };
    // Once the command has ended (or is being stopped), the pipes get PIPE_DRAIN_MS more; then they
    // are closed on our side, whoever holds their other end. setImmediate: a loop that was busy
    // when the drain's time came reads what is waiting in the pipes before the run is concluded.
    const startDrain = (): void => {
      drain ??= setTimeout(() => setImmediate(() => {
        if (done) return;
        conclude(true);
        child.stdout.destroy();
        child.stderr.destroy();
      }), PIPE_DRAIN_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup(child.pid);
      startDrain();
    }, command.timeoutMs);
    child.on('error', (error) => finish(null, `cannot start ${file}: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    // What the command left running in its group (a server it did not stop) would hold its output
    // open: the group goes with its leader. A process of another session is out of reach: the drain.
    child.on('exit', (code, signal) => {
      ended = { code, signal };
      stopGroup(child.pid);
      startDrain();
    });
    child.on('close', () => conclude(false));
  });
}

/** The runner's environment, and the mock's address (and the key to send, with --api-key) under both names. */
function clientEnv(command: ClientCommand, mockUrl: string): Record<string, string | undefined> {
  const key = command.apiKey === undefined ? {} : { MOCK_API_KEY: command.apiKey, SHORTLINK_MOCK_API_KEY: command.apiKey };
  return { ...command.env, MOCK_URL: mockUrl, SHORTLINK_MOCK_URL: mockUrl, ...key };
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
