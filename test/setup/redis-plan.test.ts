// planRedisServer, the Redis set-up's decision, as a table: use a redis-server, install Debian's
// package, or fail with the exact command to run. The set-up (redis-global-setup.ts) only carries it out.
import { describe, expect, it } from 'vitest';
import { DEFAULT_REDIS_SERVER as DEBIAN, planRedisServer, REDIS_INSTALL_STEPS, REDIS_SUDO_INSTALL } from './redis-plan.js';

const BREW = '/opt/homebrew/bin/redis-server';
const OWN = '/opt/redis/bin/redis-server';
const SUDO = REDIS_SUDO_INSTALL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The machine: what SHORTLINK_MOCK_REDIS_SERVER says, which files are executable, root, apt-get. */
interface Given {
  env?: string;
  present: string[];
  root: boolean;
  apt: boolean;
}
/** The plan expected: the path used or installed, or what a failure's message must say. */
type Then = { use: string } | { install: string } | { fail: RegExp[] };

const table: [what: string, given: Given, then: Then][] = [
  ['Debian redis-server present', { present: [DEBIAN], root: false, apt: true }, { use: DEBIAN }],
  ['Debian redis-server present, root: no install', { present: [DEBIAN], root: true, apt: true }, { use: DEBIAN }],
  ['missing, root with apt-get', { present: [], root: true, apt: true }, { install: DEBIAN }],
  ['missing, not root, apt-get', { present: [], root: false, apt: true }, { fail: [/^\/usr\/bin\/redis-server is missing and this is not root: /, new RegExp(`; run: ${SUDO} \\(or set SHORTLINK_MOCK_REDIS_SERVER to a redis-server binary\\)\\.$`)] }],
  ['missing, root without apt-get', { present: [], root: true, apt: false }, { fail: [/ is missing and there is no apt-get: /, /set SHORTLINK_MOCK_REDIS_SERVER to its redis-server binary/] }],
  ['missing, not root, no apt-get (macOS)', { present: [], root: false, apt: false }, { fail: [/ is missing and this is not root: /, /brew install redis, then SHORTLINK_MOCK_REDIS_SERVER=\$\(brew --prefix\)\/bin\/redis-server\)\.$/] }],
  ['configured and there', { env: BREW, present: [BREW], root: false, apt: false }, { use: BREW }],
  ['configured, Debian redis-server missing, root: no install', { env: OWN, present: [OWN], root: true, apt: true }, { use: OWN }],
  ['configured with spaces around', { env: ` ${BREW} `, present: [BREW], root: false, apt: false }, { use: BREW }],
  ['configured but missing, root: fails rather than installs another Redis', { env: '/opt/none/redis-server', present: [DEBIAN], root: true, apt: true }, { fail: [/^SHORTLINK_MOCK_REDIS_SERVER=\/opt\/none\/redis-server is not an executable file: /, /; point SHORTLINK_MOCK_REDIS_SERVER at a redis-server binary, or unset it to use Debian's \/usr\/bin\/redis-server\.$/] }],
  ['configured empty counts as unset', { env: '', present: [], root: true, apt: true }, { install: DEBIAN }],
  ['configured blank counts as unset', { env: '  ', present: [DEBIAN], root: false, apt: true }, { use: DEBIAN }],
];

describe('planRedisServer', () => {
  it.each(table)('%s', (_what, given, then) => {
    const looked: string[] = [];
    const plan = planRedisServer({
      configured: given.env,
      isExecutable: (path) => (looked.push(path), given.present.includes(path)),
      isRoot: given.root,
      hasAptGet: given.apt,
    });
    if ('fail' in then) {
      expect(plan.action).toBe('fail');
      const message = plan.action === 'fail' ? plan.message : '';
      for (const pattern of then.fail) expect(message).toMatch(pattern);
      expect(message).toMatch(/the Redis tests \(test\/setup\/redis-infra\.test\.ts and the tests of the Redis store\) start their own redis-server/);
    } else {
      expect(plan).toEqual('use' in then ? { action: 'use', path: then.use } : { action: 'install', path: then.install });
    }
    // A configured path is the only one looked at: Debian's is never used in its place.
    if (given.env?.trim()) expect(looked).toEqual([given.env.trim()]);
  });

  it('installs Debian redis-server in two steps and tells someone who is not root the exact command', () => {
    expect(REDIS_INSTALL_STEPS).toEqual([
      ['apt-get', 'update'],
      ['apt-get', 'install', '-y', 'redis-server'],
    ]);
    expect(REDIS_SUDO_INSTALL).toBe('sudo apt-get update && sudo apt-get install -y redis-server');
  });
});
