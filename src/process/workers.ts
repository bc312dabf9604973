// --workers N (D26): the primary process forks N workers, each a full mock on the same port
// (node:cluster hands connections out), all on one Redis, so they are one mock. The primary serves
// nothing itself: it forwards a stop to every worker, replaces a worker that dies while serving, and
// fails the start (exit code 2, the worker's own line already printed) if a worker cannot start.
// The start-up banner is the same from every worker: each sends it, and the primary prints the
// first one only, so N workers read as one mock.
import cluster, { type Worker } from 'node:cluster';

const EXIT_USAGE = 2;

/** The message a worker sends its primary once it listens. */
export const WORKER_LISTENING = 'shortlink-mock:listening';

interface ListeningMessage {
  type: typeof WORKER_LISTENING;
  /** The start-up banner, and the warnings printed before it (stderr). */
  banner: string;
  warnings: string[];
}

const isListening = (message: unknown): message is ListeningMessage => (message as ListeningMessage | null)?.type === WORKER_LISTENING;

export function runPrimary(count: number): void {
  const workers = new Set<Worker>();
  let listening = 0;
  let bannerPrinted = false;
  /** Set once a stop begins: the code the primary exits with when its last worker has. */
  let exitCode: number | undefined;
  const fork = (): void => {
    const worker = cluster.fork();
    workers.add(worker);
    let started = false;
    worker.on('message', (message: unknown) => {
      if (!isListening(message) || started) return;
      started = true;
      if (!bannerPrinted) {
        bannerPrinted = true;
        for (const warning of message.warnings) console.error(warning);
        console.log(message.banner);
      }
      if (++listening === count) console.log(`${count} workers serving one port; stop them all with SIGTERM or SIGINT to this process (pid ${process.pid})`);
    });
    worker.on('exit', (code) => {
      workers.delete(worker);
      if (exitCode !== undefined) {
        if (workers.size === 0) process.exit(exitCode);
        return;
      }
      if (!started) return stopAll(code === EXIT_USAGE ? EXIT_USAGE : 1);
      console.error(`shortlink-mock: worker ${worker.process.pid ?? '?'} exited (${code ?? 'signal'}); starting another`);
      fork();
    });
  };
  const stopAll = (code: number): void => {
    if (exitCode !== undefined) return;
    exitCode = code;
    if (workers.size === 0) process.exit(code);
    // Each worker stops itself within its own grace; the primary exits once they all have.
    for (const worker of workers) worker.process.kill('SIGTERM');
  };
  for (let i = 0; i < count; i += 1) fork();
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
}

/** A single process prints its banner; a worker tells the primary it serves, banner included. */
export function announceListening(banner: string, warnings: string[]): void {
  if (!cluster.isWorker) {
    for (const warning of warnings) console.error(warning);
    return void console.log(banner);
  }
  const message: ListeningMessage = { type: WORKER_LISTENING, banner, warnings };
  process.send?.(message);
}

/** Only the first worker of a start replaces the data on --reset: the others find it replaced. */
export function isFirstWorker(): boolean {
  return cluster.isPrimary || cluster.worker?.id === 1;
}

export { cluster };
