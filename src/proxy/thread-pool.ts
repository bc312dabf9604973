// A small pool of worker threads, each running one task at a time: the proxy judges large upstream
// answers there (answer-judge.ts) so that the event loop keeps answering. Our own rather than a
// library's (piscina) because what it must do is narrow and exact: a thread is started only when
// the first task comes (no cost for a mock that never needs one); a task's time limit runs from
// when its thread takes it up, not from when it was queued; a thread that overruns it, runs out of
// memory or crashes fails that task alone and is replaced when the next one comes; an idle thread
// does not keep the process alive; close() stops them all.
// The queue has no bound of its own: every task holds one of the proxy's exchange slots
// (--proxy-concurrency, exchange-slots.ts), so there are never more tasks than slots.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface ThreadPoolOptions {
  /** The worker's entry file: compiled JavaScript, or TypeScript when the caller runs as TypeScript. */
  file: URL;
  /** How many threads at most. */
  size: number;
  workerData: unknown;
  resourceLimits: ResourceLimits;
  /** How long a thread may spend on one task before it is stopped and the task failed. */
  timeoutMs: number;
}

interface Task {
  message: unknown;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
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
    const thread: Thread = { worker: extname(file.pathname) === '.ts' ? typeScriptWorker(file, workerData, resourceLimits) : new Worker(file, { execArgv: [], workerData, resourceLimits }) };
    thread.worker.on('message', (result: unknown) => this.settle(thread, (task) => task.resolve(result)));
    thread.worker.on('error', (error: Error) => this.lose(thread, `it failed: ${error.message}`));
    thread.worker.on('exit', (code) => this.lose(thread, `it exited (code ${code})`));
    this.threads.push(thread);
    return thread;
  }

  private start(thread: Thread, task: Task): void {
    thread.current = task;
    // Busy, it keeps the process alive (its caller awaits it); idle, it does not.
    thread.worker.ref();
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
 * Run from TypeScript (the tests, tsx), the entry is TypeScript: the thread registers tsx's loader
 * itself, then imports it (on Node 20 neither `--import tsx` in execArgv nor tsx's own entry
 * reaches a thread's imports; its register() does).
 */
function typeScriptWorker(file: URL, workerData: unknown, resourceLimits: ResourceLimits): Worker {
  const code = `import(${JSON.stringify(tsxApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); });`;
  return new Worker(code, { eval: true, execArgv: [], workerData, resourceLimits });
}

/** tsx's ES module API (`tsx/esm/api`, its `import` condition: require.resolve would give the CommonJS one). */
function tsxApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return new URL(exports['./esm/api']?.import.default ?? '', pathToFileURL(manifest)).href;
}
