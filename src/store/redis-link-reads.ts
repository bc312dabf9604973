// The reading half of the Redis store (redis-link-store.ts adds the claims and writes). Each read
// is a guarded transaction too, so it is answered from the current generation only: after a reset
// through any instance, no read anywhere answers from the replaced data.
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from '../core/model.js';
import type { DomainEntry } from './link-store.js';
import { BULK_TIMEOUT_MS, type RedisConnection } from './redis-connection.js';
import { snapshotData, snapshotTxn } from './redis-data.js';
import { domainField, slugField, tagNameField, type RedisKeys } from './redis-keys.js';
import { decodeJson, decodeLink } from './redis-records.js';
import { TxnRunner, type Build } from './redis-runner.js';
import { linksFrom, readLinks } from './redis-link-txns.js';
import { pairs } from './redis-txn.js';

/** A list read again this often when the data is replaced between its two reads. */
const LIST_ATTEMPTS = 5;

export class RedisLinkReads {
  readonly location: string;
  protected readonly runner: TxnRunner;

  constructor(
    protected readonly connection: RedisConnection,
    readonly keys: RedisKeys,
    generation: string,
  ) {
    this.location = connection.location;
    this.runner = new TxnRunner(connection, keys, generation);
  }

  /** Commands and round trips sent so far (for measuring). */
  get stats(): RedisConnection['stats'] {
    return this.connection.stats;
  }

  health(): Promise<{ ok: true } | { ok: false; reason: string }> {
    return this.connection.health();
  }

  defaultDomain(): Promise<DomainRecord> {
    return this.one((t, k) => t.read('HGET', k.meta, 'defaultDomain')) as Promise<DomainRecord>;
  }

  accountByKey(apiKey: string): Promise<AccountRecord | undefined> {
    return this.one((t, k) => t.read('HGET', k.accounts, apiKey));
  }

  /** In the order they came. */
  async accounts(): Promise<AccountRecord[]> {
    const [order, byKey] = await this.reads((t, k) => t.read('LRANGE', k.accountOrder, '0', '-1').read('HGETALL', k.accounts));
    const records = pairs(byKey);
    return (order as string[]).flatMap((apiKey) => decodeJson<AccountRecord>(records.get(apiKey)) ?? []);
  }

  domainByName(name: string): Promise<DomainEntry | undefined> {
    return this.one((t, k) => t.read('HGET', k.domains, domainField(name)));
  }

  domainById(id: string): Promise<DomainRecord | undefined> {
    return this.one((t, k) => t.read('HGET', k.domainIds, id));
  }

  async linkById(id: string): Promise<LinkRecord | undefined> {
    const [json, clicks] = await this.reads((t, k) => t.read('HGET', k.links, id).read('HGET', k.clicks, id));
    return decodeLink(json, clicks);
  }

  /** One round trip: the slug's link id is followed inside the transaction. */
  async linkAt(domainId: string, slug: string): Promise<LinkRecord | undefined> {
    const field = slugField(domainId, slug);
    const [json, clicks] = await this.reads((t, k) => t.readVia(k.slugs, field, k.links).readVia(k.slugs, field, k.clicks));
    return decodeLink(json, clicks);
  }

  /** Two reads (the ids, then their records), both in one generation; a link deleted in between is left out. */
  linksOf(accountId: string): Promise<LinkRecord[]> {
    return this.connection.bounded(async () => {
      for (let attempt = 0; attempt < LIST_ATTEMPTS; attempt += 1) {
        const listed = await this.runner.run((t, k) => t.read('SMEMBERS', k.linksOf(accountId)));
        const ids = listed.replies[0] as string[];
        const outcome = await this.runner.runAt(listed.generation, (t, k) => readLinks(t, k, ids));
        if (outcome.status !== 'stale') return linksFrom(ids, outcome.replies);
      }
      throw new Error(`store unavailable: the data was replaced ${LIST_ATTEMPTS} times while the links of ${accountId} were read`);
    });
  }

  async linkCount(accountId: string): Promise<number> {
    return Number((await this.reads((t, k) => t.read('SCARD', k.linksOf(accountId))))[0]);
  }

  async totalLinks(): Promise<number> {
    return Number((await this.reads((t, k) => t.read('HLEN', k.links)))[0]);
  }

  tagById(id: string): Promise<TagRecord | undefined> {
    return this.one((t, k) => t.read('HGET', k.tags, id));
  }

  tagByName(accountId: string, name: string): Promise<TagRecord | undefined> {
    return this.one((t, k) => t.read('HGET', k.tagNames, tagNameField(accountId, name)));
  }

  /** Which of these slugs a link or a claim holds in the domain (to seed an account clear of them). */
  async slugsTaken(domainId: string, slugs: readonly string[]): Promise<Set<string>> {
    if (slugs.length === 0) return new Set();
    const [held] = await this.reads((t, k) => t.read('HMGET', k.slugs, ...slugs.map((slug) => slugField(domainId, slug))));
    return new Set(slugs.filter((_, i) => typeof (held as unknown[])[i] === 'string'));
  }

  /**
   * One atomic read: the data of one moment. It can be large, so it is given longer, after a small
   * read has shown that Redis answers (a Redis that is gone fails that one at once).
   */
  async snapshot(): Promise<MockData> {
    await this.hasData();
    return snapshotData(await this.runner.read(snapshotTxn, BULK_TIMEOUT_MS));
  }

  /** Whether the current generation holds data (false: the generation key points at nothing). */
  async hasData(): Promise<boolean> {
    return Number((await this.reads((t, k) => t.read('HLEN', k.meta)))[0]) > 0;
  }

  protected reads(build: Build): Promise<unknown[]> {
    return this.connection.bounded(() => this.runner.read(build));
  }

  /** One JSON record, parsed. */
  private async one<T>(build: Build): Promise<T | undefined> {
    return decodeJson<T>((await this.reads(build))[0]);
  }
}
