// D25 on the store: with Redis killed, or stopped so that it no longer answers, every call settles
// within 2 s as a `store unavailable: ` rejection and health says why; the claims a refused create
// gives back meanwhile are given back once Redis answers again; and once Redis is back, the store
// works again within 5 s by itself, with its data (appendonly) and its script reloaded.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LinkRecord, MockData, TagRecord } from '../../src/core/model.js';
import type { RedisLinkStore } from '../../src/store/redis-link-store.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { freshPrefix, RedisStores, seedData, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const SETTLE_LIMIT_MS = 2_000;
const RECOVERY_LIMIT_MS = 5_000;

let redis: RedisServer | undefined;
const stores = new RedisStores();
const logged: string[] = [];
let store: RedisLinkStore;
const data: MockData = seedData();

beforeAll(async () => {
  sharedRedisUrl(); // fails with the set-up's words when there is no redis-server
  redis = await startRedis({ persistence: 'aof' });
  store = (await stores.open(redis.url, freshPrefix(), { log: (line) => logged.push(line) })).store;
});
afterAll(async () => {
  await stores.closeAll();
  await redis?.stop();
});
afterEach(async () => {
  // A test that failed half-way must not leave the server stopped or killed for the next.
  try {
    process.kill(redis!.pid, 'SIGCONT');
  } catch {
    await redis!.restart();
  }
  await recovery();
});

const link = Object.values(data.links)[0] as LinkRecord;
const tag = Object.values(data.tags)[0] as TagRecord;
const account = data.accounts[0]!;

/** Every call of the store, each once. */
const calls: Array<[string, () => Promise<unknown>]> = [
  ['defaultDomain', () => store.defaultDomain()],
  ['accountByKey', () => store.accountByKey(account.apiKey)],
  ['accounts', () => store.accounts()],
  ['domainByName', () => store.domainByName('short.test')],
  ['domainById', () => store.domainById(link.domainId)],
  ['linkById', () => store.linkById(link.id)],
  ['linkAt', () => store.linkAt(link.domainId, link.slug)],
  ['linksOf', () => store.linksOf(account.id)],
  ['linkCount', () => store.linkCount(account.id)],
  ['totalLinks', () => store.totalLinks()],
  ['tagById', () => store.tagById(tag.id)],
  ['tagByName', () => store.tagByName(tag.accountId, tag.name)],
  ['reserveLinkSlot', () => store.reserveLinkSlot(account.id, account.linkLimit)],
  ['claimSlug', () => store.claimSlug(link.domainId, 'while-down', 'lnk_down')],
  ['claimTagName', () => store.claimTagName({ id: 'tag_down000000000000', accountId: account.id, name: 'down' })],
  ['insertLink', () => store.insertLink({ ...link, id: 'lnk_held', slug: 'held' }, [])],
  ['updateLink', () => store.updateLink(link, { destinationUrl: 'https://example.com/down' }, [])],
  ['deleteLink', () => store.deleteLink(link)],
  ['addClicks', () => store.addClicks(link.id, 1)],
  ['setLinkLimit', () => store.setLinkLimit(account.id, 3)],
  ['addAccount', () => store.addAccount({ account: { ...account, id: 'acc_down', apiKey: 'down-key' }, tags: [], links: [] })],
  ['replaceAll', () => store.replaceAll(seedData(99))],
  ['snapshot', () => store.snapshot()],
];

/** What a create holds when it stores its link: a place under the limit and its slug. */
async function holdClaims(): Promise<void> {
  expect(await store.reserveLinkSlot(account.id, account.linkLimit)).toBe(true);
  expect(await store.claimSlug(link.domainId, 'held', 'lnk_held')).toBe(true);
}

/** The calls that write data: one that timed out may still be made once Redis answers, and says so. */
const WRITES = ['claimTagName', 'insertLink', 'updateLink', 'deleteLink', 'addClicks', 'setLinkLimit', 'addAccount'];
const MAYBE_MADE = /did not answer within \d+ ms; the change may have been made$/;

/** Each call rejects with `store unavailable: ` + a reason matching `reason`, within the limit; all at once. The messages, by call. */
async function expectAllUnavailable(reason: RegExp): Promise<Map<string, string>> {
  const outcomes = await Promise.all(
    calls.map(async ([name, call]) => {
      const started = Date.now();
      const message = await call().then(
        () => `${name} succeeded`,
        (e: unknown) => (e as Error).message,
      );
      return { name, message, ms: Date.now() - started };
    }),
  );
  for (const { name, message, ms } of outcomes) {
    expect({ name, message }).toEqual({ name, message: expect.stringMatching(/^store unavailable: /) });
    expect(message, name).toMatch(reason);
    expect(ms, name).toBeLessThan(SETTLE_LIMIT_MS);
  }
  return new Map(outcomes.map(({ name, message }) => [name, message]));
}

/** The create is refused: it gives its claims back, which settles within the limit though Redis is gone. */
async function giveBackWhileDown(): Promise<void> {
  const started = Date.now();
  await store.releaseSlug(link.domainId, 'held', 'lnk_held');
  await store.releaseLinkSlot(account.id);
  expect(Date.now() - started).toBeLessThan(SETTLE_LIMIT_MS);
}

/**
 * Polls (bounded) until the claims given back while Redis was gone are given back in Redis: the
 * count of places is the count of links, and the slug is held only if its link was stored (a
 * command that timed out may still run once a stopped Redis runs again).
 */
async function expectGivenBack(): Promise<void> {
  const generation = await withRawClient(redis!.url, (client) => client.get(`${store.keys.prefix}generation`));
  const started = Date.now();
  let state = { slots: -1, links: 0, slugHeld: true, linkStored: false };
  for (let attempt = 0; Date.now() - started < RECOVERY_LIMIT_MS && attempt < 1_000; attempt += 1) {
    state = await withRawClient(redis!.url, async (client) => ({
      slots: Number(await client.hGet(`${store.keys.prefix}${generation}:slots`, account.id)),
      links: await store.linkCount(account.id),
      slugHeld: (await client.hExists(`${store.keys.prefix}${generation}:slugs`, `${link.domainId}/held`)) === 1,
      linkStored: (await store.linkById('lnk_held')) !== undefined,
    }));
    if (state.slots === state.links && state.slugHeld === state.linkStored) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(state).toEqual({ ...state, slots: state.links, slugHeld: state.linkStored });
}

/** Polls (bounded) until the store answers again; the time it took. */
async function recovery(): Promise<number> {
  const started = Date.now();
  for (let attempt = 0; Date.now() - started < RECOVERY_LIMIT_MS && attempt < 1_000; attempt += 1) {
    if ((await store.health()).ok) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the store did not answer again within ${RECOVERY_LIMIT_MS} ms of Redis being back`);
}

describe('Redis unavailable (D25)', () => {
  it('killed: every call rejects within 2 s naming the reason; once back, the store works again within 5 s with its data', async () => {
    await holdClaims();
    await redis!.kill9();
    const messages = await expectAllUnavailable(new RegExp(`Redis at ${redis!.url.replace(/[.]/g, '\\.')}`));
    // Refused before being sent: nothing may have been made.
    for (const [name, message] of messages) expect(message, name).not.toMatch(/may have been made/);
    await giveBackWhileDown();
    const health = await store.health();
    expect(health).toEqual({ ok: false, reason: expect.stringMatching(/^Redis at redis:\/\/127\.0\.0\.1:\d+ is not reachable \((Socket closed unexpectedly|.*ECONNREFUSED.*|.*ECONNRESET.*)\)$/) });
    await redis!.restart();
    expect(await recovery()).toBeLessThan(RECOVERY_LIMIT_MS);
    // The data survived (appendonly), and the script is loaded again into the new server.
    expect(await store.linkById(link.id)).toEqual(link);
    expect(await store.addClicks(link.id, 2)).toEqual({ ...link, clickCount: link.clickCount + 2 });
    expect(logged.some((line) => /is unavailable \(.*\); reconnecting$/.test(line))).toBe(true);
    expect(logged.at(-1)).toMatch(/^Redis at .* is back$/);
    await expectGivenBack();
  });

  it('not answering (stopped): every call rejects within 2 s; answering again, the store works', async () => {
    await holdClaims();
    process.kill(redis!.pid, 'SIGSTOP');
    try {
      const messages = await expectAllUnavailable(/did not answer within \d+ ms/);
      for (const [name, message] of messages) expect(message, name).toMatch(WRITES.includes(name) ? MAYBE_MADE : /did not answer within \d+ ms$/);
      expect(await store.health()).toEqual({ ok: false, reason: expect.stringMatching(/did not answer within/) });
      await giveBackWhileDown();
    } finally {
      process.kill(redis!.pid, 'SIGCONT');
    }
    expect(await recovery()).toBeLessThan(RECOVERY_LIMIT_MS);
    expect(await store.totalLinks()).toBeGreaterThan(0);
    // The connection never dropped, so nothing says Redis is back: the next reservation retries them.
    expect(await store.reserveLinkSlot(account.id, account.linkLimit)).toBe(true);
    await store.releaseLinkSlot(account.id);
    await expectGivenBack();
  });
});
