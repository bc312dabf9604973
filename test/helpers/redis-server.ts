// startRedis(): a redis-server of the test's own, in a fresh temp dir, on 127.0.0.1 at a port the
// OS handed out (and with `unixSocket`, on a Unix socket in that dir too: --db unix://…). The port
// is free when asked for but could be taken before Redis binds it: Redis then exits with "Address
// already in use" and the start is tried again on another port (bounded). restart() keeps the port
// (Redis binds with SO_REUSEADDR, so the old connections in TIME_WAIT do not block it).
//
// Callers MUST stop every server they start, in a hook that runs when a test fails too:
//   let redis: RedisServer | undefined;
//   beforeAll(async () => { redis = await startRedis(); });
//   afterAll(async () => { await redis?.stop(); });
// (beforeEach/afterEach for a server per test). stop() is idempotent and always removes the dir.
// Nets, not the way: on Linux the kernel SIGKILLs a server whose starting thread ended (see
// redis-process.ts), and a process-exit hook SIGKILLs what a crashed script left and removes its dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_REDIS_SERVER, REDIS_SERVER_ENV } from '../setup/redis-plan.js';
import { isExecutable } from '../setup/install-tools.js';
import { freePort, KILL_WAIT_MS, PortTakenError, signalAndWait, spawnRedis, type RedisProcess } from './redis-process.js';

const READY_LIMIT_MS = 15_000;
const TERM_WAIT_MS = 10_000;
const PORT_ATTEMPTS = 5;

export interface RedisOptions {
  /** The redis-server to run; by default what the Redis global set-up resolved: $SHORTLINK_MOCK_REDIS_SERVER, else /usr/bin/redis-server. */
  binary?: string;
  /** 'aof': appendonly yes + appendfsync always, every acknowledged write survives kill -9. 'none' (default): nothing on disk, fastest. */
  persistence?: 'none' | 'aof';
  /** Also listen on `<dir>/redis.sock` (mode 700): `socketUrl` is then unix://<dir>/redis.sock. */
  unixSocket?: boolean;
}

export interface RedisServer {
  /** redis://127.0.0.1:<port>; the same across restart(). */
  readonly url: string;
  /** unix://<dir>/redis.sock when started with `unixSocket`. */
  readonly socketUrl: string | undefined;
  readonly port: number;
  /** The temp dir holding its files; gone after stop(). */
  readonly dir: string;
  /** The pid of the process started last; after stop() or kill9() it names the ended process. */
  readonly pid: number;
  /** SIGTERM, waits (bounded) for the exit, SIGKILL if it has to; always removes the dir. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit; the dir stays, for restart(). */
  kill9(): Promise<void>;
  /** Starts it again on the same port and dir (after kill9(), or stops it with SIGTERM first). */
  restart(): Promise<void>;
}

type Persistence = NonNullable<RedisOptions['persistence']>;

/** Servers started and not yet stopped, for the exit hook. */
const live = new Set<OwnRedis>();
let exitHookSet = false;

export function defaultRedisBinary(): string {
  return process.env[REDIS_SERVER_ENV]?.trim() || DEFAULT_REDIS_SERVER;
}

export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  const binary = options.binary ?? defaultRedisBinary();
  if (!isExecutable(binary)) {
    throw new Error(`${binary} is not an executable file: run the test in a Vitest project whose globalSetup is test/setup/redis-global-setup.ts (it installs redis-server), or set ${REDIS_SERVER_ENV}`);
  }
  const persistence = options.persistence ?? 'none';
  const dir = mkdtempSync(join(tmpdir(), 'shortlink-mock-redis-'));
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const args = [...serverArgs(port, dir, persistence), ...(options.unixSocket ? ['--unixsocket', join(dir, 'redis.sock'), '--unixsocketperm', '700'] : [])];
      try {
        return new OwnRedis(binary, args, port, dir, await spawnRedis(binary, args, READY_LIMIT_MS));
      } catch (error) {
        if (!(error instanceof PortTakenError) || attempt >= PORT_ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function serverArgs(port: number, dir: string, persistence: Persistence): string[] {
  const common = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no', '--logfile', '', '--save', ''];
  return persistence === 'aof' ? [...common, '--appendonly', 'yes', '--appendfsync', 'always'] : [...common, '--appendonly', 'no'];
}

class OwnRedis implements RedisServer {
  readonly url: string;
  readonly socketUrl: string | undefined;
  pid: number;
  private stopped = false;

  constructor(
    private readonly binary: string,
    private readonly args: string[],
    readonly port: number,
    readonly dir: string,
    private proc: RedisProcess | undefined,
  ) {
    this.url = `redis://127.0.0.1:${port}`;
    this.socketUrl = args.includes('--unixsocket') ? `unix://${join(dir, 'redis.sock')}` : undefined;
    this.pid = proc?.pid ?? 0;
    live.add(this);
    setExitHook();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    try {
      await this.end('SIGTERM');
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
      live.delete(this);
    }
  }

  kill9(): Promise<void> {
    return this.end('SIGKILL');
  }

  async restart(): Promise<void> {
    if (this.stopped) throw new Error(`redis-server on port ${this.port} was stopped and its dir removed: start a new one`);
    await this.end('SIGTERM');
    this.proc = await spawnRedis(this.binary, this.args, READY_LIMIT_MS);
    this.pid = this.proc.pid;
  }

  /** SIGKILL for what the exit hook finds still running; synchronous, as 'exit' handlers must be. */
  killNow(): void {
    this.proc?.child.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Sends `signal`, waits (bounded) for the exit, and escalates to SIGKILL rather than leave it running. */
  private async end(signal: NodeJS.Signals): Promise<void> {
    const ending = this.proc;
    this.proc = undefined;
    if (!ending || (await signalAndWait(ending, signal, signal === 'SIGKILL' ? KILL_WAIT_MS : TERM_WAIT_MS))) return;
    const ended = await signalAndWait(ending, 'SIGKILL', KILL_WAIT_MS);
    throw new Error(`redis-server pid ${ending.pid} did not exit within ${TERM_WAIT_MS} ms of ${signal}; ${ended ? 'killed with SIGKILL' : 'still running after SIGKILL'}\n${ending.output()}`);
  }
}

/** The net for a test that never reached its stop(): nothing it started outlives the test process. */
function setExitHook(): void {
  if (exitHookSet) return;
  exitHookSet = true;
  process.once('exit', () => {
    for (const server of live) server.killNow();
  });
}
