// Redis stores for tests: each test gets a prefix of its own on the run's shared server (or one it
// started), opened as many times as it wants separate instances (each its own connection), and
// closed after it. seedData() is the fixture data every store test starts from.
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { buildSeed } from '../../fixtures/seed.js';
import type { MockData } from '../../src/core/model.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';
import { openRedisLinkStore, type OpenRedisLinkStoreOptions, type RedisLinkStore } from '../../src/store/redis/redis-link-store.js';

const spec = readFixtureSpec();

export const seedData = (seed = 1234): MockData => buildSeed(seed, spec);

/** The fixtures with `links` links for demo-key (its limit raised to hold them). */
export function seedWithLinks(links: number, seed = 4321): MockData {
  const withLinks = structuredClone(spec);
  const demo = withLinks.accounts[0]!;
  Object.assign(demo, { links, linkLimit: Math.max(demo.linkLimit, links) });
  return buildSeed(seed, withLinks);
}

export const freshPrefix = (): string => `test-${randomBytes(6).toString('hex')}:`;

export class RedisStores {
  private readonly opened: RedisLinkStore[] = [];

  /** A store on `url` under `prefix`, seeded with seedData() when the prefix is empty. */
  async open(url: string, prefix: string, options: Partial<OpenRedisLinkStoreOptions> = {}): Promise<Awaited<ReturnType<typeof openRedisLinkStore>>> {
    const opened = await openRedisLinkStore({ url, prefix, seed: async () => seedData(), reset: false, ...options });
    this.opened.push(opened.store);
    return opened;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.opened.splice(0).map((store) => store.close()));
  }
}

/** Runs `use` with a plain client of its own, to look at the keys as Redis holds them. */
export async function withRawClient<T>(url: string, use: (client: ReturnType<typeof createClient>) => Promise<T>): Promise<T> {
  const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 5_000 } });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await use(client);
  } finally {
    client.destroy();
  }
}

/**
 * The account's link counter as Redis holds it (`<prefix><gen>:link-counts`): the number of links
 * the account has, which a create checks the limit against. A create stores its link and counts it
 * in one step, and a delete uncounts it in the same step, so it must equal the account's links at
 * all times, not only once creates have finished.
 */
export function linkCountCounter(url: string, store: RedisLinkStore, accountId: string): Promise<number> {
  return withRawClient(url, async (client) => {
    const generation = await client.get(`${store.keys.prefix}generation`);
    return Number(await client.hGet(`${store.keys.prefix}${generation}:link-counts`, accountId));
  });
}

/** Every key under `prefix`, sorted. */
export function keysUnder(url: string, prefix: string): Promise<string[]> {
  return withRawClient(url, async (client) => (await client.keys(`${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`)).sort());
}
