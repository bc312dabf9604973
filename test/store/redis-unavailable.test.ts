// D25 on the store: with Redis killed, or stopped so that it no longer answers, every call settles
// within 2 s as a `store unavailable: ` rejection and health says why; once Redis is back, the store
// works again within 5 s by itself, with its data (appendonly) and its script reloaded. A create is
// one step with nothing held between calls, so a create made while Redis was down is, once Redis
// is back, either all there (the link, its slug, its new tag, its count) or not there at all, and
// the account's link counter equals its links: no place under the limit lost or leaked.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LinkRecord, MockData, TagRecord } from '../../src/core/model.js';
import type { NewLink } from '../../src/core/link-store.js';
import type { RedisLinkStore } from '../../src/store/redis/redis-link-store.js';
import { runnableMsOf } from '../helpers/own-time.js';
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

const link = [...data.links.values()][0] as LinkRecord;
const tag = Object.values(data.tags)[0] as TagRecord;
const account = data.accounts[0]!;

/** A create of a new link of `account` with a new tag, both named `name`: nothing of it exists before. */
function newLink(name: string): NewLink {
  const tag: TagRecord = { id: `tag_${name.padEnd(16, '0')}`, accountId: account.id, name };
  const created: LinkRecord = {
    id: `lnk_${name.padEnd(16, '0')}`,
    accountId: account.id,
    domainId: data.defaultDomain.id,
    slug: name,
    destinationUrl: `https://example.com/${name}`,
    createdAt: '2026-12-01T10:00:00.000Z',
    clickCount: 0,
    tagIds: [tag.id],
  };
  return { link: created, linkLimit: account.linkLimit, newTags: [tag] };
}

/** The create the calls below make while Redis is down: a fresh one in each test. */
let whileDown: NewLink;
let tests = 0;
beforeEach(() => {
  tests += 1;
  whileDown = newLink(`down${tests}`);
});

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
  ['claimTagName', () => store.claimTagName({ id: 'tag_down000000000000', accountId: account.id, name: 'down' })],
  ['createLink', () => store.createLink(whileDown)],
  ['updateLink', () => store.updateLink(link, { destinationUrl: 'https://example.com/down' }, [])],
  ['deleteLink', () => store.deleteLink(link)],
  ['addClicks', () => store.addClicks(link.id, 1)],
  ['setLinkLimit', () => store.setLinkLimit(account.id, 3)],
  ['addAccount', () => store.addAccount({ account: { ...account, id: 'acc_down', apiKey: 'down-key' }, tags: [], links: [] })],
  ['replaceAll', () => store.replaceAll(seedData(99))],
  ['snapshot', () => store.snapshot()],
];

/** The calls that write data: one that timed out may still be made once Redis answers, and says so. */
const WRITES = ['claimTagName', 'createLink', 'updateLink', 'deleteLink', 'addClicks', 'setLinkLimit', 'addAccount'];
const MAYBE_MADE = /did not answer within \d+ ms; the change may have been made$/;

/** Each call rejects with `store unavailable: ` + a reason matching `reason`, within the limit; all at once. The messages, by call. */
async function expectAllUnavailable(reason: RegExp): Promise<Map<string, string>> {
  const outcomes = await Promise.all(
    calls.map(async ([name, call]) => {
      // Time this process could run: a wall clock would also count a loaded machine giving it none.
      const { outcome, ms } = await runnableMsOf(call);
      const message = outcome.status === 'fulfilled' ? `${name} succeeded` : (outcome.reason as Error).message;
      return { name, message, ms };
    }),
  );
  for (const { name, message, ms } of outcomes) {
    expect({ name, message }).toEqual({ name, message: expect.stringMatching(/^store unavailable: /) });
    expect(message, name).toMatch(reason);
    expect(ms, name).toBeLessThan(SETTLE_LIMIT_MS);
  }
  return new Map(outcomes.map(({ name, message }) => [name, message]));
}

/**
 * The account's links and `create` as Redis holds them, read in one MULTI (one moment) from the raw
 * keys: the account's link counter equals its links (the link records that name it, and its
 * `links-of` set), and the link, its place in that set, its clicks, its slug, its new tag and the
 * tag's name are all there or none is. Whether it was stored, and the account's links.
 */
async function expectWholeOrAbsent(create: NewLink): Promise<{ stored: boolean; links: number }> {
  const { link: created, newTags } = create;
  const tag = newTags[0]!;
  const state = await withRawClient(redis!.url, async (client) => {
    const k = `${store.keys.prefix}${await client.get(`${store.keys.prefix}generation`)}:`;
    const replies = await client
      .multi()
      .hGet(`${k}link-counts`, account.id)
      .hVals(`${k}links`)
      .sCard(`${k}links-of:${account.id}`)
      .hExists(`${k}links`, created.id)
      .sIsMember(`${k}links-of:${account.id}`, created.id)
      .hExists(`${k}clicks`, created.id)
      .hGet(`${k}slugs`, `${created.domainId}/${created.slug}`)
      .hExists(`${k}tags`, tag.id)
      .hExists(`${k}tag-names`, `${tag.accountId}/${tag.name}`)
      .exec();
    const [counted, records, listed, stored, inSet, clicks, slugOwner, tagStored, tagNamed] = replies as unknown as [string | null, string[], number, number, number, number, string | null, number, number];
    return {
      counted: Number(counted),
      records: records.filter((json) => (JSON.parse(json) as LinkRecord).accountId === account.id).length,
      listed,
      parts: { link: stored === 1, inSet: inSet === 1, clicks: clicks === 1, slug: slugOwner === created.id, tag: tagStored === 1, tagName: tagNamed === 1 },
    };
  });
  expect({ counted: state.counted, listed: state.listed }).toEqual({ counted: state.records, listed: state.records });
  const stored = state.parts.link;
  expect(state.parts).toEqual({ link: stored, inSet: stored, clicks: stored, slug: stored, tag: stored, tagName: stored });
  expect(await store.linkCount(account.id)).toBe(state.records);
  return { stored, links: state.records };
}

/** A create made now, with Redis back: stored, and counted exactly once. */
async function expectCreateCounted(name: string): Promise<void> {
  const create = newLink(name);
  const { links } = await expectWholeOrAbsent(create);
  expect(await store.createLink(create)).toBe('stored');
  expect(await expectWholeOrAbsent(create)).toEqual({ stored: true, links: links + 1 });
  expect(await store.linkById(create.link.id)).toEqual(create.link);
}

/** Polls (bounded) until the store answers again; the time it took while this process could run. */
async function recovery(): Promise<number> {
  const started = Date.now();
  const { outcome, ms } = await runnableMsOf(async () => {
    // The wall bound is wider than the limit, so that a loaded machine fails the assertion on the runnable time, not this.
    for (let attempt = 0; Date.now() - started < 4 * RECOVERY_LIMIT_MS && attempt < 4_000; attempt += 1) {
      if ((await store.health()).ok) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`the store did not answer again within ${4 * RECOVERY_LIMIT_MS} ms of Redis being back`);
  });
  if (outcome.status === 'rejected') throw outcome.reason;
  return ms;
}

describe('Redis unavailable (D25)', () => {
  it('killed: every call rejects within 2 s naming the reason; once back, the store works again within 5 s with its data', async () => {
    const { stored: existedBefore, links } = await expectWholeOrAbsent(whileDown);
    expect(existedBefore).toBe(false);
    await redis!.kill9();
    const messages = await expectAllUnavailable(new RegExp(`Redis at ${redis!.url.replace(/[.]/g, '\\.')}`));
    // Refused before being sent: nothing may have been made.
    for (const [name, message] of messages) expect(message, name).not.toMatch(/may have been made/);
    const health = await store.health();
    expect(health).toEqual({ ok: false, reason: expect.stringMatching(/^Redis at redis:\/\/127\.0\.0\.1:\d+ is not reachable \((Socket closed unexpectedly|.*ECONNREFUSED.*|.*ECONNRESET.*)\)$/) });
    await redis!.restart();
    expect(await recovery()).toBeLessThan(RECOVERY_LIMIT_MS);
    // The data survived (appendonly), and the script is loaded again into the new server.
    expect(await store.linkById(link.id)).toEqual(link);
    expect(await store.addClicks(link.id, 2)).toEqual({ ...link, clickCount: link.clickCount + 2 });
    expect(logged.some((line) => /is unavailable \(.*\); reconnecting$/.test(line))).toBe(true);
    expect(logged.at(-1)).toMatch(/^Redis at .* is back$/);
    // The create refused while Redis was gone left nothing, and took no place under the limit.
    expect(await expectWholeOrAbsent(whileDown)).toEqual({ stored: false, links });
    await expectCreateCounted('afterkill');
  });

  it('not answering (stopped): every call rejects within 2 s; answering again, the store works', async () => {
    expect((await expectWholeOrAbsent(whileDown)).stored).toBe(false);
    process.kill(redis!.pid, 'SIGSTOP');
    try {
      const messages = await expectAllUnavailable(/did not answer within \d+ ms/);
      for (const [name, message] of messages) expect(message, name).toMatch(WRITES.includes(name) ? MAYBE_MADE : /did not answer within \d+ ms$/);
      expect(await store.health()).toEqual({ ok: false, reason: expect.stringMatching(/did not answer within/) });
    } finally {
      process.kill(redis!.pid, 'SIGCONT');
    }
    expect(await recovery()).toBeLessThan(RECOVERY_LIMIT_MS);
    expect(await store.totalLinks()).toBeGreaterThan(0);
    // The create that timed out may have been made once Redis ran again (its message says so): if
    // it was, then all of it, counted; if not, none of it. Either way the counter equals the links.
    const { stored } = await expectWholeOrAbsent(whileDown);
    expect(await store.linkById(whileDown.link.id)).toEqual(stored ? whileDown.link : undefined);
    await expectCreateCounted('afterstop');
  });
});
