// Vitest global setup of each project whose tests need Redis (vitest.config.ts: redis, unit-redis,
// timed): runs once per such project at the run's start, only when a file of it is among those run.
// Resolves redis-server (SHORTLINK_MOCK_REDIS_SERVER, else Debian's /usr/bin/redis-server, else
// installs Debian's package when root), starts one shared server without persistence, and gives
// tests its URL with inject('redisUrl'): { url } or { problem } with the exact command to run, which
// they fail with (test/helpers/shared-redis.ts). Not thrown here: a throwing global setup stops
// every test of the run and Vitest reports it as "No test files found". Tests that need their own
// server (kill -9, restart, persistence) call startRedis(): its default binary is the one resolved
// here ($SHORTLINK_MOCK_REDIS_SERVER, else Debian's path, where the install puts it).
import type { TestProject } from 'vitest/node';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { isExecutable, onPath, runInstallStep } from './install-tools.js';
import { planRedisServer, REDIS_INSTALL_STEPS, REDIS_SERVER_ENV } from './redis-plan.js';

export type SharedRedisUrl = { url: string } | { problem: string };

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: SharedRedisUrl;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: RedisServer | undefined;
  const found = await findRedisServer();
  if ('path' in found) {
    try {
      server = await startRedis({ binary: found.path });
    } catch (error) {
      found.problem = `the shared redis-server did not start: ${(error as Error).message}`;
    }
  }
  const outcome: SharedRedisUrl = server ? { url: server.url } : { problem: found.problem ?? 'no redis-server' };
  if ('problem' in outcome) process.stderr.write(`redis setup: ${outcome.problem}\n`);
  project.provide('redisUrl', outcome);
  return async () => {
    await server?.stop();
  };
}

async function findRedisServer(): Promise<{ path?: string; problem?: string }> {
  const plan = planRedisServer({
    configured: process.env[REDIS_SERVER_ENV],
    isExecutable,
    isRoot: process.getuid?.() === 0,
    hasAptGet: onPath('apt-get'),
  });
  if (plan.action === 'fail') return { problem: plan.message };
  if (plan.action === 'install') {
    const started = Date.now();
    process.stderr.write(`redis setup: ${plan.path} is missing; installing Debian's redis-server package (${REDIS_INSTALL_STEPS.map((step) => step.join(' ')).join(' && ')})\n`);
    try {
      for (const step of REDIS_INSTALL_STEPS) await runInstallStep(step, "the Redis tests need Debian's redis-server");
    } catch (error) {
      return { problem: (error as Error).message };
    }
    if (!isExecutable(plan.path)) return { problem: `Debian's redis-server package installed, but ${plan.path} is still not an executable file` };
    process.stderr.write(`redis setup: installed ${plan.path} in ${Math.round((Date.now() - started) / 1000)} s\n`);
  }
  return { path: plan.path };
}
