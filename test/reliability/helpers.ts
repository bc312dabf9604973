// Shared by the reliability tests: the built CLI as a real process (started, signalled and always
// stopped by its own PID), a keep-alive HTTP client, a bounded create load that counts every 201
// from the client side, event-driven waits on the db directory, and seeded randomness.
import { existsSync, readFileSync, watch } from 'node:fs';
import http from 'node:http';
import { startCli, type CliProcess } from '../helpers/cli-process.js';

export const DEMO = 'demo-key';

// ---------------------------------------------------------------------------------------------
// Seeded randomness: every random choice of these tests comes from here, so a failure replays.

/** mulberry32: a small, fast, seeded PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const randomAlnum = (random: () => number, length: number): string =>
  Array.from({ length }, () => pick(random, [...ALPHANUMERIC])).join('');

// ---------------------------------------------------------------------------------------------
// The CLI as a real process.

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** performance.now() when the process was seen to exit. */
  at: number;
}

export interface Server {
  url: string;
  pid: number;
  cli: CliProcess;
  exited: Promise<Exit>;
  running: () => boolean;
  /** Sends the signal (if still running) and resolves when the process has exited. */
  signal: (signal: NodeJS.Signals) => Promise<Exit>;
}

/** Starts the built CLI (`--port 0`, plus args) and tracks its exit; add it to `started` for cleanup. */
export async function startServer(args: string[], cwd: string, started: Server[]): Promise<Server> {
  const cli = await startCli(args, cwd);
  const { child } = cli;
  const exited = new Promise<Exit>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode, at: performance.now() });
      return;
    }
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() }));
  });
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const server: Server = {
    url: cli.url,
    pid: child.pid as number,
    cli,
    exited,
    running,
    signal: (signal) => {
      if (running()) child.kill(signal);
      return exited;
    },
  };
  started.push(server);
  // The CLI installs its SIGTERM handler just after printing "listening on": one answered request
  // proves it is past that point (a SIGTERM sent in between kills it outright; see the report).
  const agent = new http.Agent({ keepAlive: false });
  try {
    const health = await send(agent, server.url, { method: 'GET', path: '/__admin/health' });
    if (health.status !== 200) throw new Error(`GET /__admin/health answered ${health.status}`);
  } finally {
    agent.destroy();
  }
  return server;
}

/** For finally blocks and afterEach: SIGKILL every process this test started that still runs. */
export async function stopAll(started: Server[]): Promise<void> {
  await Promise.all(started.splice(0).map((server) => server.signal('SIGKILL')));
}

/** Resident memory of a process in KiB, from /proc/<pid>/status (VmRSS). */
export function rssKiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]);
}

// ---------------------------------------------------------------------------------------------
// HTTP over keep-alive sockets.

export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

export interface Send {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as is (a fuzzed body may not be JSON at all). */
  body?: string;
}

export const REQUEST_LIMIT_MS = 15_000;

/** One request; rejects with the socket error (err.code: ECONNRESET, ECONNREFUSED, ...). */
export function send(agent: http.Agent, base: string, request: Send): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(request.path, base),
      { method: request.method, agent, headers: request.headers ?? {}, timeout: REQUEST_LIMIT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? null, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${REQUEST_LIMIT_MS} ms`), { code: 'TIMEOUT' })));
    req.on('error', reject);
    req.end(request.body);
  });
}

export const jsonHeaders = (apiKey = DEMO): Record<string, string> => ({ 'x-api-key': apiKey, 'content-type': 'application/json' });

export interface LinkView {
  id: string;
  slug: string;
  destinationUrl: string;
  domain: { id: string; name: string };
  tags: { id: string; name: string }[];
}

/** Pages of GET /__admin/links followed at most (1,000 links each). */
const MAX_LINK_PAGES = 1_000;

/** The account's links as the running server holds them (GET /__admin/links, every page). */
export async function listLinks(url: string, apiKey = DEMO): Promise<Map<string, LinkView>> {
  const agent = new http.Agent({ keepAlive: false });
  const all = new Map<string, LinkView>();
  try {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LINK_PAGES; page += 1) {
      const path = `/__admin/links?account=${encodeURIComponent(apiKey)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const answer = await send(agent, url, { method: 'GET', path });
      if (answer.status !== 200) throw new Error(`GET /__admin/links answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      const { links, nextCursor } = JSON.parse(answer.text) as { links: LinkView[]; nextCursor?: string };
      for (const link of links) all.set(link.id, link);
      cursor = nextCursor;
      if (!cursor) return all;
    }
    throw new Error(`GET /__admin/links: more than ${MAX_LINK_PAGES} pages`);
  } finally {
    agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// A create load from concurrent client loops, counting acknowledgements from the client side.

export interface LoadOptions {
  workers: number;
  /** Both bounds hold: the load stops at whichever comes first. */
  maxRequests: number;
  maxMs: number;
  /** Goes into every slug and URL, so links of different rounds never collide. */
  label: string;
}

export interface Load {
  /** Every link answered 201: id → slug. */
  acked: Map<string, string>;
  /** Statuses other than 201, with a sample body each. */
  unexpected: { status: number; text: string }[];
  /** Socket errors by code (expected once the server is killed or stopping). */
  networkErrors: Map<string, number>;
  inFlight: () => number;
  sent: () => number;
  /** Called after each 201 (the ack is already counted). */
  onAck: (listener: (ackCount: number) => void) => void;
  stop: () => void;
  /** Resolves when every client loop has ended. */
  done: Promise<void>;
}

export function createLoad(url: string, options: LoadOptions): Load {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.workers });
  const acked = new Map<string, string>();
  const unexpected: { status: number; text: string }[] = [];
  const networkErrors = new Map<string, number>();
  const listeners: ((ackCount: number) => void)[] = [];
  const deadline = performance.now() + options.maxMs;
  let stopped = false;
  let sent = 0;
  let inFlight = 0;

  const worker = async (index: number): Promise<void> => {
    for (let n = 0; !stopped && sent < options.maxRequests && performance.now() < deadline; n += 1) {
      sent += 1;
      inFlight += 1;
      const slug = `${options.label}-${index}-${n}`;
      let answer: Answer;
      try {
        answer = await send(agent, url, {
          method: 'POST',
          path: '/links',
          headers: jsonHeaders(),
          body: JSON.stringify({ destinationUrl: `https://example.com/${slug}`, domain: 'short.test', tags: [], slug }),
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        networkErrors.set(code, (networkErrors.get(code) ?? 0) + 1);
        return; // the server is gone or going: this client loop ends
      } finally {
        inFlight -= 1;
      }
      if (answer.status === 201) {
        acked.set((JSON.parse(answer.text) as { id: string }).id, slug);
        for (const listener of listeners) listener(acked.size);
      } else {
        unexpected.push({ status: answer.status, text: answer.text.slice(0, 300) });
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.workers }, (_, index) => worker(index))).then(() => agent.destroy());
  return {
    acked,
    unexpected,
    networkErrors,
    inFlight: () => inFlight,
    sent: () => sent,
    onAck: (listener) => void listeners.push(listener),
    stop: () => {
      stopped = true;
    },
    done,
  };
}

// ---------------------------------------------------------------------------------------------
// Waiting on conditions, event-driven and bounded.

/** Resolves once `condition()` holds, checked now and on every change in `dir` (inotify); rejects after `limitMs`. */
export function whenInDir(dir: string, condition: () => boolean, limitMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir);
    const finish = (error?: Error): void => {
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve();
    };
    const check = (): void => {
      try {
        if (condition()) finish();
      } catch {
        // a file vanished between events: check again on the next one
      }
    };
    const timer = setTimeout(() => finish(new Error(`${what}: not seen within ${limitMs} ms`)), limitMs);
    watcher.on('change', check);
    watcher.on('error', (error) => finish(error));
    check();
  });
}

/** Resolves when the load has had `count` acknowledgements; rejects if it ends first. */
export function whenAcked(load: Load, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (load.acked.size >= count) return resolve();
    load.onAck((size) => {
      if (size >= count) resolve();
    });
    void load.done.then(() => reject(new Error(`the load ended after ${load.acked.size} of ${count} acknowledgements`)));
  });
}

export const exists = (file: string): boolean => existsSync(file);
