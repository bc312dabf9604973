// One store size of `npm run bench:scale --store redis` (bench/scale.mjs): seed a prefix of its own
// on the bench's Redis, stop, restart on it (start time), read the admin pages, run the create
// load, stop; Redis's memory per link from INFO memory (used_memory before and after the seeding)
// and MEMORY USAGE of a sample of the prefix's keys. The prefix is dropped (FLUSHALL: the server
// is the bench's own) before the next size.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { writeFixtures } from './fixtures.mjs';
import { measureRound } from './measure.mjs';
import { memoryOf, mockCommand, startServer } from './processes.mjs';
import { adminPages, timedStop } from './scale-phases.mjs';

const PARSER = fileURLToPath(new URL('./scale-parse.mjs', import.meta.url));
const SAMPLED_KEYS = 200;

export async function redisSize(links, dir, redis, settings, log) {
  mkdirSync(dir, { recursive: true });
  const fixtures = writeFixtures(dir, links);
  const prefix = `scale-${links}:`;
  const command = (reset) => {
    const { command: node, args } = mockCommand({ db: redis.url, fixtures, reset });
    return { command: node, args: [...args, '--redis-prefix', prefix] };
  };
  const client = await createClient({ url: redis.url }).connect();
  const row = { links, store: 'redis' };
  try {
    await client.flushAll();
    const before = await usedMemory(client);
    const seeding = await startServer(command(true), { timeoutMs: settings.timeoutMs });
    row.seedMs = seeding.listeningMs;
    row.seedStop = await timedStop(seeding);
    row.redisBytes = (await usedMemory(client)) - before;
    row.bytesPerLink = row.redisBytes / links;
    row.sampledKeys = await sampleKeys(client, prefix);
    log(`${links} on redis: seeded in ${Math.round(row.seedMs)} ms, ${Math.round(row.bytesPerLink)} bytes per link`);
    const cursor = await deepCursor(fixtures);
    const server = await startServer(command(false), { timeoutMs: settings.timeoutMs });
    try {
      row.startMs = server.listeningMs;
      row.rssAfterStartMiB = memoryOf(server.pid)?.rss;
      row.pages = await adminPages(server, cursor);
      const load = await measureRound(server, 'create', settings.durationSec);
      row.create = { reqPerSec: load.reqPerSec, p99: load.p99, stallMs: load.eld?.max, valid: load.valid, problems: load.problems, created: load.statuses['201'] ?? 0 };
      row.rssAfterLoadMiB = memoryOf(server.pid)?.rss;
      log(`${links} on redis: start ${Math.round(row.startMs)} ms, pages first ${Math.round(row.pages.first.ms)} deep ${Math.round(row.pages.deep?.ms)} ms, create ${Math.round(load.reqPerSec)} req/s`);
    } finally {
      row.stop = await timedStop(server);
    }
  } finally {
    await client.flushAll().catch(() => undefined);
    await client.quit();
  }
  return row;
}

const usedMemory = async (client) => Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1]);

/** MEMORY USAGE of up to SAMPLED_KEYS of the prefix's keys, grouped by the key with its ids blanked. */
async function sampleKeys(client, prefix) {
  const groups = {};
  let taken = 0;
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    for (const key of [keys].flat()) {
      if (taken++ >= SAMPLED_KEYS) return groups;
      const group = key.replace(/(lnk|tag|acc|dom)_[A-Za-z0-9]+/g, '$1_*');
      const bytes = Number(await client.memoryUsage(key));
      groups[group] = { keys: (groups[group]?.keys ?? 0) + 1, bytes: (groups[group]?.bytes ?? 0) + bytes };
    }
  }
  return groups;
}

async function deepCursor(fixtures) {
  const { stdout } = await promisify(execFile)(process.execPath, [PARSER, '--seed', fixtures, 'demo-key'], { timeout: 10 * 60_000, maxBuffer: 1 << 20 });
  return JSON.parse(stdout);
}
