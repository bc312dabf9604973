// A small pool of worker threads, each running one task at a time: the proxy judges large upstream
// answers there (answer-judge.ts) so that the event loop keeps answering. Our own rather than a
// library's (piscina) because what it must do is narrow and exact: a thread is started only when
// the first task comes (no cost for a mock that never needs one); a task's time limit runs from
// when its thread takes it up, not from when it was queued nor while the thread is still starting
// (its entry loaded: a loaded machine took more than a judging thread's 10 s to start one, and the
// answer was failed as "took more than 10000 ms" before it was ever looked at; a thread that does
// not start within THREAD_START_TIMEOUT_MS is stopped instead); a thread that overruns it, runs out of
// memory or crashes fails that task alone and is replaced when the next one comes; an idle thread
// does not keep the process alive; close() stops them all.
// The queue has no bound of its own: every task holds one of the proxy's exchange slots
// (--proxy-concurrency, exchange-slots.ts), so there are never more tasks than slots.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** How long a new thread may take to load its entry before it is stopped and its task failed. */
export const THREAD_START_TIMEOUT_MS = 60_000;

/** What a thread posts once its entry is loaded (the wrapper of spawn() sends it, not the entry). */
const READY = 'shortlink-mock:thread-ready';

export interface ThreadPoolOptions {
  /** The worker's entry file: compiled JavaScript, or TypeScript when the caller runs as TypeScript. */
  file: URL;
  /** How many threads at most. */
  size: number;
  workerData: unknown;
  resourceLimits: ResourceLimits;
  /** How long a thread may spend on one task before it is stopped and the task failed. */
  timeoutMs: number;
  /** How long a new thread may take to start (default THREAD_START_TIMEOUT_MS). */
  startTimeoutMs?: number;
}

interface Task {
  message: unknown;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  /** Its entry is loaded: a task is handed over, and timed, only then. */
  ready: boolean;
  current?: Task;
  timer?: NodeJS.Timeout;
}

export class ThreadPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Task[] = [];
  private closed = false;

  constructor(private readonly options: ThreadPoolOptions) {}

  /** The thread's one answer to `message`; rejects with why there is none (timeout, crash, close). */
  run(message: unknown): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the mock is closing'));
    return new Promise((resolve, reject) => {
      this.queue.push({ message, resolve, reject });
      this.dispatch();
    });
  }

  /** How many threads run now (started and not yet stopped). */
  get running(): number {
    return this.threads.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('the mock is closing'));
    await Promise.all(this.threads.map((thread) => thread.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      const thread = this.threads.find((candidate) => !candidate.current) ?? (this.threads.length < this.options.size ? this.spawn() : undefined);
      if (!thread) return;
      this.start(thread, this.queue.shift() as Task);
    }
  }

  private spawn(): Thread {
    const { file, workerData, resourceLimits } = this.options;
    const thread: Thread = { worker: startWorker(file, workerData, resourceLimits), ready: false };
    thread.worker.on('message', (result: unknown) => (result === READY ? this.started(thread) : this.settle(thread, (task) => task.resolve(result))));
    thread.worker.on('error', (error: Error) => this.lose(thread, `it failed: ${error.message}`));
    thread.worker.on('exit', (code) => this.lose(thread, `it exited (code ${code})`));
    const startMs = this.options.startTimeoutMs ?? THREAD_START_TIMEOUT_MS;
    thread.timer = setTimeout(() => this.lose(thread, `it did not start within ${startMs} ms`), startMs);
    this.threads.push(thread);
    return thread;
  }

  private start(thread: Thread, task: Task): void {
    thread.current = task;
    // Busy, it keeps the process alive (its caller awaits it); idle, it does not.
    thread.worker.ref();
    if (thread.ready) this.hand(thread, task);
  }

  /** Its entry is loaded: the task it was given waiting is handed over now. */
  private started(thread: Thread): void {
    thread.ready = true;
    clearTimeout(thread.timer);
    if (thread.current) this.hand(thread, thread.current);
    else thread.worker.unref();
  }

  /** The task to the thread, its time running from now. */
  private hand(thread: Thread, task: Task): void {
    thread.timer = setTimeout(() => this.lose(thread, `it took more than ${this.options.timeoutMs} ms`), this.options.timeoutMs);
    thread.worker.postMessage(task.message);
  }

  private settle(thread: Thread, outcome: (task: Task) => void): void {
    const task = thread.current;
    clearTimeout(thread.timer);
    thread.current = undefined;
    if (this.threads.includes(thread)) thread.worker.unref();
    if (task) outcome(task);
    this.dispatch();
  }

  /** The thread is stopped and forgotten, its task (if any) failed; the next task starts another. */
  private lose(thread: Thread, reason: string): void {
    const index = this.threads.indexOf(thread);
    if (index < 0) return;
    this.threads.splice(index, 1);
    void thread.worker.terminate();
    this.settle(thread, (task) => task.reject(new Error(reason)));
  }
}

/**
 * The entry, loaded by a few lines of wrapper that say READY once it is (its top level run: for the
 * judging thread, the contract compiled). Run from TypeScript (the tests, tsx), the entry is
 * TypeScript: the thread registers tsx's loader itself first (on Node 20 neither `--import tsx` in
 * execArgv nor tsx's own entry reaches a thread's imports; its register() does).
 */
function startWorker(file: URL, workerData: unknown, resourceLimits: ResourceLimits): Worker {
  const register = extname(file.pathname) === '.ts' ? `import(${JSON.stringify(tsxApi())}).then((tsx) => tsx.register())` : 'Promise.resolve()';
  const code = `${register}.then(() => import(${JSON.stringify(file.href)})).then(() => import('node:worker_threads')).then(({ parentPort }) => parentPort.postMessage(${JSON.stringify(READY)}));`;
  return new Worker(code, { eval: true, execArgv: [], workerData, resourceLimits });
}

/** tsx's ES module API (`tsx/esm/api`, its `import` condition: require.resolve would give the CommonJS one). */
function tsxApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return new URL(exports['./esm/api']?.import.default ?? '', pathToFileURL(manifest)).href;
}
