// Issue 40 (Redis at 1,000,000 links): a seed, reset or snapshot restore on Redis writes the new
// generation in batches of a bounded number of records, one command each, never many at once
// (each answers well within the command deadline however large the data); every link is there, in
// its page order, after many batches; and a writer killed half-way (kill -9) leaves the data that
// was current served and nothing of its partial generation visible at the next start.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MockData } from '../../src/core/model.js';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { RedisConnection } from '../../src/store/redis/redis-connection.js';
import { ABANDONED_MS, Generations } from '../../src/store/redis/redis-generations.js';
import { WRITES_IN_FLIGHT } from '../../src/store/redis/redis-generations.js';
import { RedisKeys } from '../../src/store/redis/redis-keys.js';
import { allPages, newestFirst } from '../helpers/link-page-cases.js';
import { freshPrefix, keysUnder, RedisStores, seedData, seedWithLinks, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const CHILD = join(PACKAGE_ROOT, 'test', 'helpers', 'redis-seed-child.mjs');
const CHILD_LIMIT_MS = 60_000;
const BATCH = 7;

let url: string;
const stores = new RedisStores();
beforeAll(() => {
  url = sharedRedisUrl();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await stores.closeAll();
});

const seedOf = (links: number, seed?: number): MockData => seedWithLinks(links, seed);

/** How many records a command that writes a generation carries (fields of an HSET, members of a SADD/RPUSH/ZADD). */
function recordsOf(args: readonly string[]): number {
  const values = args.length - 2;
  return args[0] === 'HSET' || args[0] === 'ZADD' ? values / 2 : values;
}

/** Watches every command this process sends under `prefix`: the most records one carried, the most in flight at once. */
function watchWrites(prefix: string): { most: number; inFlight: number; commands: number } {
  const seen = { most: 0, inFlight: 0, commands: 0 };
  const send = RedisConnection.prototype.send;
  let now = 0;
  vi.spyOn(RedisConnection.prototype, 'send').mockImplementation(async function (this: RedisConnection, args, timeoutMs) {
    const write = ['HSET', 'SADD', 'RPUSH', 'ZADD'].includes(args[0] as string) && String(args[1]).startsWith(prefix) && args[1] !== `${prefix}generations`;
    if (!write) return send.call(this, args, timeoutMs);
    seen.commands += 1;
    seen.most = Math.max(seen.most, recordsOf(args));
    now += 1;
    seen.inFlight = Math.max(seen.inFlight, now);
    try {
      return await send.call(this, args, timeoutMs);
    } finally {
      now -= 1;
    }
  });
  return seen;
}

describe('writing a generation in bounded batches', () => {
  // 60 s: about 10 s alone on a loaded machine, and twice that beside other files (20 s, the default, failed so).
  it('20,000 links seeded in batches of 7 records: every link there, with its index, in page order', { timeout: 60_000 }, async () => {
    const prefix = freshPrefix();
    const data = seedOf(20_000);
    const seen = watchWrites(prefix);
    const { store, seeded } = await stores.open(url, prefix, { seed: async () => data, writeBatch: BATCH });
    expect(seeded).toBe(true);
    expect(seen.most).toBe(BATCH);
    expect(seen.inFlight).toBeLessThanOrEqual(WRITES_IN_FLIGHT);
    // links, clicks, slugs, links-of and links-by-time: five records per link, BATCH at a time.
    expect(seen.commands).toBeGreaterThan((5 * 20_000) / BATCH);
    vi.restoreAllMocks();

    expect(await store.snapshot()).toEqual(data);
    for (const account of data.accounts) {
      const owned = [...data.links.values()].filter((link) => link.accountId === account.id);
      expect(await store.linkCount(account.id)).toBe(owned.length);
      expect(await allPages(store, account.id, 1_000)).toEqual(newestFirst(owned).map((link) => link.id));
    }
    const some = [...data.links.values()][12_345]!;
    expect(await store.linkAt(some.domainId, some.slug)).toEqual(some);
  });

  it('a reset (the admin reset and snapshot restore are the same replace) writes in the same batches', async () => {
    const prefix = freshPrefix();
    const { store } = await stores.open(url, prefix, { writeBatch: BATCH });
    const data = seedOf(2_000, 99);
    const seen = watchWrites(prefix);
    await store.replaceAll(data);
    expect(seen.most).toBe(BATCH);
    expect(seen.inFlight).toBeLessThanOrEqual(WRITES_IN_FLIGHT);
    vi.restoreAllMocks();
    expect(await store.snapshot()).toEqual(data);
  });
});

/** Runs the child until it says "paused" (half-way through writing the links), then kill -9. */
async function killHalfWay(prefix: string, reset: boolean): Promise<void> {
  const child = spawn(process.execPath, [CHILD, url, prefix, reset ? '1' : '0', '5000', String(BATCH), '40'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the seeding child never paused within ${CHILD_LIMIT_MS} ms:\n${output}`)), CHILD_LIMIT_MS);
    const check = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!/paused|finished|Error/.test(output)) return;
      clearTimeout(timer);
      if (/paused/.test(output)) resolve();
      else reject(new Error(`the seeding child did not pause:\n${output}`));
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
  }).finally(() => child.kill('SIGKILL'));
  await exited;
}

describe('a writer killed half-way (kill -9)', () => {
  it('a reset: the data current before it is what the next start serves; the partial generation is invisible, then swept', async () => {
    const prefix = freshPrefix();
    const before = await stores.open(url, prefix);
    const generation = await withRawClient(url, (client) => client.get(`${prefix}generation`));
    await before.store.close();

    await killHalfWay(prefix, true);
    const generations = await withRawClient(url, (client) => client.zRange(`${prefix}generations`, 0, -1));
    expect(generations).toHaveLength(2);
    expect(generations).toContain(generation);

    const next = await stores.open(url, prefix, { seed: () => Promise.reject(new Error('must not seed')) });
    expect(next.seeded).toBe(false);
    expect(await withRawClient(url, (client) => client.get(`${prefix}generation`))).toBe(generation);
    expect(await next.store.snapshot()).toEqual(seedData());
    await expectSweptTo(prefix, generation!);
  });

  it('a first seed: the next start finds no data and seeds it whole; the partial generation is swept', async () => {
    const prefix = freshPrefix();
    await killHalfWay(prefix, false);
    expect(await withRawClient(url, (client) => client.get(`${prefix}generation`))).toBeNull();

    const next = await stores.open(url, prefix);
    expect(next.seeded).toBe(true);
    expect(await next.store.snapshot()).toEqual(seedData());
    await expectSweptTo(prefix, (await withRawClient(url, (client) => client.get(`${prefix}generation`)))!);
  });
});

/** A sweep once the partial generation counts as abandoned leaves only the current one's keys. */
async function expectSweptTo(prefix: string, current: string): Promise<void> {
  const connection = await RedisConnection.open({ url });
  try {
    await new Generations(connection, new RedisKeys(prefix)).sweep(Date.now() + ABANDONED_MS + 1);
  } finally {
    await connection.close();
  }
  const stray = (await keysUnder(url, prefix)).filter((key) => !key.startsWith(`${prefix}${current}:`));
  expect(stray).toEqual([`${prefix}generation`, `${prefix}generations`]);
}
