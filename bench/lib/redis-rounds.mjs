// The Redis rows of `npm run bench` (issue 13): at one store size, `create` and `mixed` with one
// mock instance on Redis (and `create` once more over Redis's Unix socket), alternating round by
// round with the mock on its file store and with bare Express, so the ratios cancel the machine's
// drift; then `--workers 2` against one worker, both on Redis. Redis runs with appendonly yes +
// appendfsync always: the same promise as the file store's durable mode (acknowledged = on disk).
// Each Redis round seeds a prefix of its own.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { measureRound, warmUp } from './measure.mjs';
import { baselineCommand, freePort, mockCommand, startServer, stopServer, track } from './processes.mjs';

const REDIS_WORKLOADS = ['create', 'mixed'];
const READY_TIMEOUT_MS = 15_000;

export async function redisRounds(store, settings, log) {
  const binary = process.env.SHORTLINK_MOCK_REDIS_SERVER ?? '/usr/bin/redis-server';
  if (!existsSync(binary)) return { skipped: `no ${binary}: apt-get install -y redis-server, or set SHORTLINK_MOCK_REDIS_SERVER` };
  const redis = await startBenchRedis(binary);
  const rounds = { links: store.links, redis: 'appendonly yes, appendfsync always', workloads: {}, workers: { one: [], two: [] } };
  try {
    for (const workload of REDIS_WORKLOADS.filter((name) => settings.workloads.includes(name))) {
      const rows = { file: [], redis: [], baseline: [] };
      for (let round = 1; round <= settings.rounds; round += 1) {
        rows.file.push(await measured(mockCommand({ db: store.copy(`redis-file-${workload}-${round}`), fixtures: store.fixtures }), workload, settings));
        rows.redis.push(await measured(redisMock(redis.url, `bench-${workload}-${round}:`, store.fixtures), workload, settings, redis.pid));
        if (workload === 'create') (rows.socket ??= []).push(await measured(redisMock(redis.socketUrl, `bench-${workload}-socket-${round}:`, store.fixtures), workload, settings, redis.pid));
        rows.baseline.push(await measured(baselineCommand(), workload, settings));
        log(`redis, ${workload}, round ${round}: file ${line(rows.file.at(-1))} | redis ${line(rows.redis.at(-1))}${rows.socket ? ` | socket ${line(rows.socket.at(-1))}` : ''} | bare ${line(rows.baseline.at(-1))}`);
      }
      rounds.workloads[workload] = rows;
    }
    for (let round = 1; round <= settings.rounds; round += 1) {
      rounds.workers.one.push(await measured(redisMock(redis.url, `bench-w1-${round}:`, store.fixtures), 'create', settings));
      rounds.workers.two.push(await measured(redisMock(redis.url, `bench-w2-${round}:`, store.fixtures, ['--workers', '2']), 'create', settings));
      log(`redis, --workers, round ${round}: one ${line(rounds.workers.one.at(-1))} | two ${line(rounds.workers.two.at(-1))}`);
    }
  } finally {
    await redis.stop();
  }
  return rounds;
}

function redisMock(url, prefix, fixtures, extra = []) {
  const { command, args } = mockCommand({ db: url, fixtures, reset: true });
  return { command, args: [...args, '--redis-prefix', prefix, ...extra] };
}

/** With `redisPid`, also the CPU time Redis spent per request served in the round (µs): what one Redis core can take. */
async function measured(command, workload, settings, redisPid) {
  let server;
  try {
    server = await startServer(command, { timeoutMs: 120_000 });
    await warmUp(server, workload, settings.warmUpSec);
    const before = redisPid && cpuSeconds(redisPid);
    const round = await measureRound(server, workload, settings.durationSec);
    if (!redisPid) return round;
    return { ...round, redisCpuUsPerRequest: ((cpuSeconds(redisPid) - before) * 1e6) / (round.reqPerSec * settings.durationSec) };
  } finally {
    await stopServer(server);
  }
}

/** User + system CPU seconds of a process so far (Linux /proc; clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A redis-server of the bench's own: a free port, a temp dir, removed when it stops. `appendfsync always` unless `persist` is false. */
export async function startBenchRedis(binary, { persist = true } = {}) {
  const dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'shortlink-bench-redis-'));
  const port = await freePort();
  const socket = join(dir, 'redis.sock');
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--unixsocket', socket, '--unixsocketperm', '700', '--dir', dir, '--save', '', ...(persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'])];
  const child = track(spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server not ready within ${READY_TIMEOUT_MS} ms: ${output}`)), READY_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    socketUrl: `unix://${socket}`,
    pid: child.pid,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const line = (r) => `${Math.round(r.reqPerSec)} req/s p99 ${r.p99} ms${r.valid ? '' : ' INVALID'}`;
