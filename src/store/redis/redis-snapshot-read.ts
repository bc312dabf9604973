// A snapshot of the live data on Redis (what the admin snapshot saves), consistent with one moment
// and read in batches. The current generation keeps changing while the mock serves (creates,
// clicks), so reading it in batches as it is would mix moments; one atomic read of it (HGETALL of
// every hash) was one reply of the whole data: at 1,000,000 links some 400 MB, built while Redis
// answered nothing else, then parsed in one piece by the mock. Instead one script copies the keys a
// snapshot holds (COPY, inside Redis: no reply) under names of this read's own, in the generation
// and only while it is current, with a time to live; the copies, which nothing writes, are then
// read SNAPSHOT_READ_BATCH fields a command (HSCAN, LRANGE), and deleted. A Redis without COPY
// (before 6.2) gets the one atomic read as before.
import { randomBytes } from 'node:crypto';
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import { putEntry } from '../../core/own-entry.js';
import { SplitLinkTable } from '../../core/link-table.js';
import { BULK_TIMEOUT_MS, type RedisConnection } from './redis-connection.js';
import { snapshotData, snapshotTxn } from './redis-data.js';
import type { GenerationKeys, RedisKeys } from './redis-keys.js';
import { decodeLink } from './redis-records.js';
import type { TxnRunner } from './redis-runner.js';
import { pairs } from './redis-txn.js';

/** Fields (or list members) per command while a snapshot's copy is read: about 150 KB of links a reply. */
export const SNAPSHOT_READ_BATCH = 500;
/** A snapshot's copy expires this long after it was made, if its reader never deletes it. */
export const SNAPSHOT_COPY_TTL_S = 600;
/** Bounds the reads of one key: 20,000 rounds of SNAPSHOT_READ_BATCH is 10,000,000 fields. */
const MAX_READ_ROUNDS = 20_000;
/** The copy (or, without COPY, the one read) is given BULK_TIMEOUT_MS and this much more per link. */
const SNAPSHOT_MS_PER_LINK = 0.05;
/** A copy made again on the new generation this often, when resets keep coming faster. */
const STALE_ATTEMPTS = 5;

/**
 * KEYS: the generation key, then n keys and the n names of their copies. ARGV: the generation,
 * the time to live. Copies only while that generation is current; answers {'ok', copies made} or
 * {'stale'}. A key that does not exist (no tags yet) is not copied.
 */
const COPY_SCRIPT = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'stale', 0} end
local n = (#KEYS - 1) / 2
local made = 0
for i = 2, n + 1 do
  if redis.call('COPY', KEYS[i], KEYS[i + n]) == 1 then
    redis.call('EXPIRE', KEYS[i + n], ARGV[2])
    made = made + 1
  end
end
return {'ok', made}`;

/** The keys a snapshot holds, by what they are. */
const snapshotKeys = (k: GenerationKeys) => ({ meta: k.meta, order: k.accountOrder, accounts: k.accounts, tags: k.tags, links: k.links, clicks: k.clicks });
type Copies = ReturnType<typeof snapshotKeys>;

/** The current generation's data, as of one moment. */
export async function readSnapshot(connection: RedisConnection, runner: TxnRunner, keys: RedisKeys): Promise<MockData> {
  const links = Number((await runner.read((t, k) => t.read('HLEN', k.links)))[0]);
  const copyMs = BULK_TIMEOUT_MS + Math.ceil(links * SNAPSHOT_MS_PER_LINK);
  const readId = randomBytes(8).toString('hex');
  for (let attempt = 0; attempt < STALE_ATTEMPTS; attempt += 1) {
    const k = keys.of(runner.generation);
    const live = snapshotKeys(k);
    const copies = Object.fromEntries(Object.entries(live).map(([name, key]) => [name, k.frozen(readId, key)])) as Copies;
    let made: number;
    try {
      made = await copy(connection, keys.generation, k.generation, Object.values(live), Object.values(copies), copyMs);
    } catch (error) {
      if (!/unknown (redis )?command/i.test((error as Error).message)) throw error;
      return snapshotData(await runner.read(snapshotTxn, copyMs));
    }
    if (made < 0) {
      // The generation changed: the read learns the new one (or seeds again), then the copy is tried there.
      await runner.read((t, kk) => t.read('HLEN', kk.meta));
      continue;
    }
    try {
      const data = await readCopies(connection, copies);
      // A copy gone meanwhile (expired, or deleted by hand) would have been read as empty.
      const still = Number(await connection.send(['EXISTS', ...Object.values(copies)]));
      if (still !== made) throw new Error(`store unavailable: the snapshot's copy under ${k.frozen(readId, '')} expired or was deleted while it was read`);
      return data;
    } finally {
      await connection.send(['UNLINK', ...Object.values(copies)]).catch(() => undefined);
    }
  }
  throw new Error(`store unavailable: the data under the Redis prefix ${keys.prefix} was replaced ${STALE_ATTEMPTS} times while a snapshot was taken`);
}

/** Copies `from` to `to` in `generation`: how many keys were copied, or -1 when it is no longer current. */
async function copy(connection: RedisConnection, generationKey: string, generation: string, from: string[], to: string[], ms: number): Promise<number> {
  const keys = [generationKey, ...from, ...to];
  const [status, made] = (await connection.send(['EVAL', COPY_SCRIPT, String(keys.length), ...keys, generation, String(SNAPSHOT_COPY_TTL_S)], ms)) as [string, number];
  return status === 'ok' ? Number(made) : -1;
}

/** The data of the copies, read a batch a command. */
async function readCopies(connection: RedisConnection, copies: Copies): Promise<MockData> {
  const meta = pairs(await connection.send(['HGETALL', copies.meta]));
  const clicks = new Map<string, string>();
  await scan(connection, copies.clicks, (id, count) => clicks.set(id, count));
  const accounts = new Map<string, string>();
  await scan(connection, copies.accounts, (apiKey, json) => accounts.set(apiKey, json));
  const data: MockData = {
    formatVersion: Number(meta.get('formatVersion')),
    seed: Number(meta.get('seed')),
    defaultDomain: JSON.parse(meta.get('defaultDomain') ?? 'null') as DomainRecord,
    accounts: (await list(connection, copies.order)).map((apiKey) => JSON.parse(accounts.get(apiKey) as string) as AccountRecord),
    tags: {},
    links: new SplitLinkTable(),
  };
  await scan(connection, copies.tags, (id, json) => putEntry(data.tags, id, JSON.parse(json) as TagRecord));
  await scan(connection, copies.links, (id, json) => data.links.set(id, decodeLink(json, clicks.get(id) ?? '0') as LinkRecord));
  return data;
}

/** Every field of a hash that nothing changes, SNAPSHOT_READ_BATCH a command (a field HSCAN gives twice is taken twice: the same). */
async function scan(connection: RedisConnection, key: string, each: (field: string, value: string) => void): Promise<void> {
  let cursor = '0';
  for (let round = 0; round < MAX_READ_ROUNDS; round += 1) {
    const [next, flat] = (await connection.send(['HSCAN', key, cursor, 'COUNT', String(SNAPSHOT_READ_BATCH)])) as [string, string[]];
    for (let i = 0; i + 1 < flat.length; i += 2) each(flat[i] as string, flat[i + 1] as string);
    cursor = next;
    if (cursor === '0') return;
  }
  throw new Error(`store unavailable: ${key} was not read whole in ${MAX_READ_ROUNDS} reads`);
}

/** Every member of a list that nothing changes, SNAPSHOT_READ_BATCH a command. */
async function list(connection: RedisConnection, key: string): Promise<string[]> {
  const members: string[] = [];
  for (let round = 0; round < MAX_READ_ROUNDS; round += 1) {
    const start = round * SNAPSHOT_READ_BATCH;
    const part = (await connection.send(['LRANGE', key, String(start), String(start + SNAPSHOT_READ_BATCH - 1)])) as string[];
    members.push(...part);
    if (part.length < SNAPSHOT_READ_BATCH) return members;
  }
  throw new Error(`store unavailable: ${key} was not read whole in ${MAX_READ_ROUNDS} reads`);
}
