// The Redis server a test run shares (started by test/setup/redis-global-setup.ts), for tests:
// its URL, or the set-up's problem (with the exact command to run) thrown as the test's failure.
// Call it in beforeAll of any test that needs Redis, also one that starts servers of its own, so a
// missing redis-server fails with the set-up's words rather than a spawn error.
import { inject } from 'vitest';
import type { SharedRedisUrl } from '../setup/redis-global-setup.js';

export function sharedRedisUrl(): string {
  const shared = inject('redisUrl') as SharedRedisUrl | undefined;
  if (!shared) throw new Error('no shared Redis: put this test file in a Vitest project whose globalSetup is test/setup/redis-global-setup.ts (vitest.config.ts)');
  if ('problem' in shared) throw new Error(shared.problem);
  return shared.url;
}
