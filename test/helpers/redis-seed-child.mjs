// A process that seeds (or, with --reset, replaces) the data under a Redis prefix through the built
// store (dist/), in batches of `batch` records, and stops half-way: once `pauseAfter` commands
// writing the new generation's `links` hash were answered, it prints "paused" and sends nothing
// more, so the test can kill -9 it at a known point (test/store/redis-batched-seed.test.ts).
// argv: url prefix reset(0|1) links batch pauseAfter
import { readFileSync } from 'node:fs';
import { buildSeed } from '../../dist/fixtures/seed.js';
import { RedisConnection } from '../../dist/src/store/redis/redis-connection.js';
import { openRedisLinkStore } from '../../dist/src/store/redis/redis-link-store.js';

const [url, prefix, reset, links, batch, pauseAfter] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(new URL('../../fixtures/accounts.json', import.meta.url), 'utf8'));
spec.accounts[0].links = Number(links);
spec.accounts[0].linkLimit = Math.max(spec.accounts[0].linkLimit, Number(links));

const send = RedisConnection.prototype.send;
let written = 0;
RedisConnection.prototype.send = async function (args, timeoutMs) {
  if (written >= Number(pauseAfter)) return new Promise(() => undefined);
  const reply = await send.call(this, args, timeoutMs);
  if (args[0] === 'HSET' && String(args[1]).startsWith(prefix) && String(args[1]).endsWith(':links')) {
    written += 1;
    if (written === Number(pauseAfter)) process.stdout.write('paused\n');
  }
  return reply;
};

await openRedisLinkStore({ url, prefix, reset: reset === '1', seed: async () => buildSeed(4321, spec), writeBatch: Number(batch) });
process.stdout.write('finished\n');
