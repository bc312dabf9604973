// Run by redis-infra.test.ts as its own process: starts a redis-server, prints its pid and dir, then
// crashes without calling stop(), as a test process that dies mid-test would. The test checks that
// startRedis's exit hook still ended the server and removed the dir.
import { startRedis } from '../helpers/redis-server.js';

const redis = await startRedis();
process.stdout.write(`${JSON.stringify({ pid: redis.pid, dir: redis.dir })}\n`);
throw new Error('crashing on purpose, with the server still running');
