// The reading half of the Redis store (redis-link-store.ts adds the writes). Each read is a guarded
// transaction too, so it is answered from the current generation only: after a reset through any
// instance, no read anywhere answers from the replaced data. Domains and tags, which never change
// once made, are read once per generation (redis-fact-cache.ts). A request's first reads share one
// script call (redis-read-alongside.ts); an account's links are read in redis-account-links.ts.
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import type { DomainEntry, PageRead } from '../../core/link-store.js';
import type { RedisConnection } from './redis-connection.js';
import { readSnapshot } from './redis-snapshot-read.js';
import { domainField, slugField, tagNameField, type RedisKeys } from './redis-keys.js';
import { decodeJson, decodeLink } from './redis-records.js';
import { TxnRunner, type Build, type Reseed } from './redis-runner.js';
import { readLinkPage, readLinksOf } from './redis-account-links.js';
import { pairs } from './redis-txn.js';
import { FactCache } from './redis-fact-cache.js';
import { RememberedAccounts } from './redis-remembered-accounts.js';
import { ReadAlongside } from './redis-read-alongside.js';

export class RedisLinkReads {
  readonly location: string;
  protected readonly runner: TxnRunner;
  private readonly facts = new FactCache();
  /** Accounts read with no scenario set, for creates decided without a first read. */
  protected readonly remembered = new RememberedAccounts();
  /** A request's first reads in one script call (redis-read-alongside.ts). */
  private readonly alongside: ReadAlongside;

  constructor(
    protected readonly connection: RedisConnection,
    readonly keys: RedisKeys,
    generation: string,
    reseed?: Reseed,
  ) {
    this.location = connection.location;
    this.runner = new TxnRunner(connection, keys, generation, reseed);
    this.alongside = new ReadAlongside(connection, this.runner, this.remembered);
  }

  /** Commands and round trips sent so far (for measuring). */
  get stats(): RedisConnection['stats'] {
    return this.connection.stats;
  }

  health(): Promise<{ ok: true } | { ok: false; reason: string }> {
    return this.connection.health();
  }

  defaultDomain(): Promise<DomainRecord> {
    return this.fact('default-domain', '', (t, k) => t.read('HGET', k.meta, 'defaultDomain')) as Promise<DomainRecord>;
  }

  accountByKey(apiKey: string): Promise<AccountRecord | undefined> {
    return this.alongside.accountReadThisTurn(apiKey) ?? this.one((t, k) => t.read('HGET', k.accounts, apiKey));
  }

  /** The key's account and its scenario names in one script call, or from memory (redis-read-alongside.ts). */
  namesWithAccount(apiKey: string, globalKey: string, byKeyKey: string, recall = false): Promise<[unknown, unknown]> {
    return this.alongside.namesWithAccount(apiKey, globalKey, byKeyKey, recall);
  }

  /** Whether what this account record was handed out on (from memory) still holds (redis-read-alongside.ts). */
  stillCurrent(account: AccountRecord): Promise<boolean> {
    return this.alongside.stillCurrent(account);
  }

  /** In the order they came. */
  async accounts(): Promise<AccountRecord[]> {
    const [order, byKey] = await this.reads((t, k) => t.read('LRANGE', k.accountOrder, '0', '-1').read('HGETALL', k.accounts));
    const records = pairs(byKey);
    return (order as string[]).flatMap((apiKey) => decodeJson<AccountRecord>(records.get(apiKey)) ?? []);
  }

  async accountCount(): Promise<number> {
    return Number((await this.reads((t, k) => t.read('HLEN', k.accounts)))[0]);
  }

  domainByName(name: string): Promise<DomainEntry | undefined> {
    const field = domainField(name);
    return this.fact('domain-by-name', field, (t, k) => t.read('HGET', k.domains, field));
  }

  domainById(id: string): Promise<DomainRecord | undefined> {
    return this.fact('domain', id, (t, k) => t.read('HGET', k.domainIds, id));
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

  /** Every link of the account, read in batches (redis-account-links.ts). */
  linksOf(accountId: string): Promise<LinkRecord[]> {
    return readLinksOf(this.runner, accountId);
  }

  /** A page from the account's page order (redis-account-links.ts). */
  linkPageOf(accountId: string, page: PageRead): Promise<LinkRecord[]> {
    return readLinkPage(this.connection, this.runner, accountId, page);
  }

  async linkCount(accountId: string): Promise<number> {
    return Number((await this.reads((t, k) => t.read('SCARD', k.linksOf(accountId))))[0]);
  }

  async totalLinks(): Promise<number> {
    return Number((await this.reads((t, k) => t.read('HLEN', k.links)))[0]);
  }

  tagById(id: string): Promise<TagRecord | undefined> {
    return this.fact('tag', id, (t, k) => t.read('HGET', k.tags, id));
  }

  tagByName(accountId: string, name: string): Promise<TagRecord | undefined> {
    const field = tagNameField(accountId, name);
    return this.fact('tag-by-name', field, (t, k) => t.read('HGET', k.tagNames, field));
  }

  /** Which of these slugs a link or a claim holds in the domain (to seed an account clear of them). */
  async slugsTaken(domainId: string, slugs: readonly string[]): Promise<Set<string>> {
    if (slugs.length === 0) return new Set();
    const [held] = await this.reads((t, k) => t.read('HMGET', k.slugs, ...slugs.map((slug) => slugField(domainId, slug))));
    return new Set(slugs.filter((_, i) => typeof (held as unknown[])[i] === 'string'));
  }

  /** The data of one moment, copied at once inside Redis and read in batches (redis-snapshot-read.ts). */
  snapshot(): Promise<MockData> {
    return readSnapshot(this.connection, this.runner, this.keys);
  }

  /** Whether the current generation holds data (false: the generation key points at nothing). */
  async hasData(): Promise<boolean> {
    return Number((await this.reads((t, k) => t.read('HLEN', k.meta)))[0]) > 0;
  }

  protected reads(build: Build): Promise<unknown[]> {
    return this.connection.bounded(() => this.runner.read(build));
  }

  /** A tag made in `generation` by this instance: its next readers need no round trip. */
  protected rememberTag(generation: string, tag: TagRecord): void {
    this.facts.put(generation, 'tag', tag.id, tag);
    this.facts.put(generation, 'tag-by-name', tagNameField(tag.accountId, tag.name), tag);
  }

  /** A record that never changes once made: from the cache of this generation, or read now. */
  private fact<T>(kind: string, key: string, build: Build): Promise<T | undefined> {
    return this.facts.get(() => this.runner.generation, kind, key, () => this.one<T>(build));
  }

  /** One JSON record, parsed. */
  private async one<T>(build: Build): Promise<T | undefined> {
    return decodeJson<T>((await this.reads(build))[0]);
  }
}
