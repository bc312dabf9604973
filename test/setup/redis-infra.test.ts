// The Redis test infrastructure works: the run's shared server (redis-global-setup.ts) answers, and
// startRedis() starts a server of the test's own that answers, stops leaving no process and no dir,
// keeps an acknowledged write across kill -9 with appendonly, and gives each server its own port.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PortTakenError, spawnRedis } from '../helpers/redis-process.js';
import { defaultRedisBinary, startRedis, type RedisOptions, type RedisServer } from '../helpers/redis-server.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const started: RedisServer[] = [];
const holders: Server[] = [];

/** Holds `port` (0: any) on 127.0.0.1 as another program would; closed after each test. */
async function holdPort(port: number): Promise<number> {
  const holder = createServer();
  holders.push(holder);
  await new Promise<void>((resolve, reject) => holder.once('error', reject).listen(port, '127.0.0.1', resolve));
  const address = holder.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return address.port;
}

async function ownRedis(options?: RedisOptions): Promise<RedisServer> {
  const redis = await startRedis(options);
  started.push(redis);
  return redis;
}

/** Runs `use` with a connected client; the client never reconnects, so a dead server is an error at once. */
async function withClient<T>(url: string, use: (client: ReturnType<typeof createClient>) => Promise<T>): Promise<T> {
  const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 5_000 } });
  const errors: Error[] = [];
  client.on('error', (error: Error) => errors.push(error));
  await client.connect();
  try {
    return await use(client);
  } finally {
    client.destroy();
  }
}

/** Whether `pid` is a live process; a zombie (ended, not yet reaped by its parent) counts as ended. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  const stat = `/proc/${pid}/stat`;
  return !(existsSync(stat) && /^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8')));
}

/** Polls, bounded, until `pid` has ended: a process orphaned by its parent's crash is reaped by init, not us. */
async function waitUntilEnded(pid: number, limitMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

beforeAll(() => {
  sharedRedisUrl(); // fails every test with the set-up's problem when there is no redis-server
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((redis) => redis.stop()));
  await Promise.all(holders.splice(0).map((holder) => new Promise((resolve) => holder.close(resolve))));
});

describe('the shared server of the run', () => {
  it('answers PING, SET and GET at inject("redisUrl")', async () => {
    const url = sharedRedisUrl();
    expect(url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    await withClient(url, async (client) => {
      expect(await client.ping()).toBe('PONG');
      expect(await client.set('redis-infra:shared', 'yes')).toBe('OK');
      expect(await client.get('redis-infra:shared')).toBe('yes');
      await client.del('redis-infra:shared');
    });
  });
});

describe('startRedis', () => {
  it('starts a server that answers, and stop() leaves no process and no dir', async () => {
    const redis = await ownRedis();
    expect(isRunning(redis.pid)).toBe(true);
    expect(existsSync(redis.dir)).toBe(true);
    await withClient(redis.url, async (client) => {
      expect(await client.ping()).toBe('PONG');
      expect(await client.set('key', 'value')).toBe('OK');
      expect(await client.get('key')).toBe('value');
    });
    await redis.stop();
    expect(isRunning(redis.pid)).toBe(false);
    expect(existsSync(redis.dir)).toBe(false);
    await redis.stop(); // idempotent: afterEach stops it again
    await expect(redis.restart()).rejects.toThrow(/was stopped and its dir removed/);
  });

  it('with appendonly, keeps an acknowledged write across kill -9 and restart() on the same port', async () => {
    const redis = await ownRedis({ persistence: 'aof' });
    const firstPid = redis.pid;
    await withClient(redis.url, async (client) => {
      expect(await client.configGet('appendfsync')).toEqual({ appendfsync: 'always' });
      expect(await client.set('acknowledged', 'kept')).toBe('OK');
    });
    await redis.kill9();
    expect(isRunning(firstPid)).toBe(false);
    await expect(withClient(redis.url, (client) => client.ping())).rejects.toThrow(/ECONNREFUSED/);
    await redis.restart();
    expect(redis.pid).not.toBe(firstPid);
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await withClient(redis.url, (client) => client.get('acknowledged'))).toBe('kept');
  });

  it('without persistence, writes nothing to disk and a kill -9 loses the data', async () => {
    const redis = await ownRedis();
    await withClient(redis.url, async (client) => {
      expect(await client.configGet('appendonly')).toEqual({ appendonly: 'no' });
      expect(await client.configGet('save')).toEqual({ save: '' });
      await client.set('volatile', 'gone');
    });
    await redis.kill9();
    await redis.restart();
    expect(await withClient(redis.url, (client) => client.get('volatile'))).toBeNull();
    expect(readdirSync(redis.dir)).toEqual([]);
  });

  it('restart() of a running server stops it with SIGTERM first', async () => {
    const redis = await ownRedis({ persistence: 'aof' });
    const firstPid = redis.pid;
    await withClient(redis.url, (client) => client.set('across', 'restart'));
    await redis.restart();
    expect(isRunning(firstPid)).toBe(false);
    expect(await withClient(redis.url, (client) => client.get('across'))).toBe('restart');
  });

  it('gives two servers at once different ports and separate data', async () => {
    const [one, two] = await Promise.all([ownRedis(), ownRedis()]);
    expect(one.port).not.toBe(two.port);
    expect(one.dir).not.toBe(two.dir);
    await withClient(one.url, (client) => client.set('which', 'one'));
    expect(await withClient(two.url, (client) => client.get('which'))).toBeNull();
  });

  it('leaves no process and no dir when the process that started it crashes before stop()', async () => {
    const script = fileURLToPath(new URL('redis-orphan.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(stderr).toMatch(/crashing on purpose/);
    expect(code).not.toBe(0);
    const { pid, dir } = JSON.parse(stdout) as { pid: number; dir: string };
    expect(pid).toBeGreaterThan(0);
    expect(await waitUntilEnded(pid)).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });

  it('tells a port another program holds (PortTakenError: startRedis then tries another port) and restart() fails on it', async () => {
    const port = await holdPort(0);
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', tmpdir(), '--save', '', '--appendonly', 'no'];
    await expect(spawnRedis(defaultRedisBinary(), args, 10_000)).rejects.toBeInstanceOf(PortTakenError);

    const redis = await ownRedis();
    await redis.kill9();
    await holdPort(redis.port);
    await expect(redis.restart()).rejects.toThrow(/Address already in use/);
    await new Promise((resolve) => holders.pop()?.close(resolve));
    await redis.restart();
    expect(await withClient(redis.url, (client) => client.ping())).toBe('PONG');
  });
});
