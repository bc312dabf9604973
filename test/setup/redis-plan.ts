// What a test run does about the redis-server binary the Redis tests start: binary-plan.ts's
// decision for Redis, a row per case in redis-plan.test.ts. Doing it is redis-global-setup.ts's job.
import { aptInstallSteps, planBinary, sudoInstall, type BinaryFacts, type BinaryPlan, type BinarySpec } from './binary-plan.js';

/** The environment variable naming the redis-server binary; set, it is used as is and nothing is installed. */
export const REDIS_SERVER_ENV = 'SHORTLINK_MOCK_REDIS_SERVER';
/** Where Debian's `redis-server` package puts the server. */
export const DEFAULT_REDIS_SERVER = '/usr/bin/redis-server';

export const REDIS_SERVER: BinarySpec = {
  env: REDIS_SERVER_ENV,
  debianPath: DEFAULT_REDIS_SERVER,
  aptPackage: 'redis-server',
  forWhat: 'the Redis tests (test/setup/redis-infra.test.ts and the tests of the Redis store) start their own redis-server',
  binaryKind: 'a redis-server binary',
  withoutApt: `install Redis 7 or later and set ${REDIS_SERVER_ENV} to its redis-server binary (macOS: brew install redis, then ${REDIS_SERVER_ENV}=$(brew --prefix)/bin/redis-server)`,
};

/** Run as root, in this order, with DEBIAN_FRONTEND=noninteractive. */
export const REDIS_INSTALL_STEPS = aptInstallSteps(REDIS_SERVER.aptPackage);
/** The same install for someone who is not root, to copy and paste. */
export const REDIS_SUDO_INSTALL = sudoInstall(REDIS_SERVER.aptPackage);

export type RedisServerFacts = BinaryFacts;
export type RedisServerPlan = BinaryPlan;

export function planRedisServer(facts: RedisServerFacts): RedisServerPlan {
  return planBinary(REDIS_SERVER, facts);
}
