// The reading half of the Redis store (redis-link-store.ts adds the writes). Each read is a guarded
// transaction too, so it is answered from the current generation only: after a reset through any
// instance, no read anywhere answers from the replaced data. Domains and tags, which never change
// once made, are read once per generation (redis-fact-cache.ts).
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import type { DomainEntry, PageRead } from '../../core/link-store.js';
import { olderFirst } from '../../core/link-order.js';
import type { RedisConnection } from './redis-connection.js';
import { readSnapshot } from './redis-snapshot-read.js';
import { domainField, slugField, tagNameField, type RedisKeys } from './redis-keys.js';
import { decodeJson, decodeLink } from './redis-records.js';
import { TxnRunner, type Build, type Reseed } from './redis-runner.js';
import { LINKS_PER_READ, linksFrom, readLinks } from './redis-link-txns.js';
import { pageTxn } from './redis-link-order.js';
import { pairs } from './redis-txn.js';
import { FactCache } from './redis-fact-cache.js';
import { RememberedAccounts } from './redis-remembered-accounts.js';

const NO_NAMES: [unknown, unknown] = [null, null];

/** The key's account, the global scenario's name and the key's own, in that order. */
const accountAndNames =
  (apiKey: string, globalKey: string, byKeyKey: string): Build =>
  (t, k) =>
    t.read('HGET', k.accounts, apiKey).read('GET', globalKey).read('HGET', byKeyKey, apiKey);

/** A list read again this often when the data is replaced between its reads. */
const LIST_ATTEMPTS = 5;
/** Reads of LINKS_PER_READ links sent at once: each is answered well within its timeout. */
const READS_AT_ONCE = 8;

export class RedisLinkReads {
  readonly location: string;
  protected readonly runner: TxnRunner;
  private readonly facts = new FactCache();
  /** Account reads made this turn along with a scenario read (namesWithAccount), by key: an accountByKey of the same turn shares it. */
  private readonly accountsAlongside = new Map<string, Promise<AccountRecord | undefined>>();
  /** Accounts read with no scenario set, for creates decided without a first read. */
  protected readonly remembered = new RememberedAccounts();

  constructor(
    protected readonly connection: RedisConnection,
    readonly keys: RedisKeys,
    generation: string,
    reseed?: Reseed,
  ) {
    this.location = connection.location;
    this.runner = new TxnRunner(connection, keys, generation, reseed);
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
    return this.accountsAlongside.get(apiKey) ?? this.one((t, k) => t.read('HGET', k.accounts, apiKey));
  }

  /**
   * Two values of the traffic state (`GET globalKey`, `HGET byKeyKey apiKey`: a request's scenario
   * names) and the key's account, in one step: a request's first reads, sent as one script call
   * instead of two. The account is as fresh as a read of its own sent at this moment, so an
   * accountByKey for this key in the same turn (the request's authentication) takes it.
   * With `recall`, and when this instance remembers the key's account with no scenario set, no
   * read at all: the account handed out carries that basis, which its create checks
   * (redis-remembered-accounts.ts).
   */
  namesWithAccount(apiKey: string, globalKey: string, byKeyKey: string, recall = false): Promise<[unknown, unknown]> {
    const remembered = recall ? this.remembered.recall(this.runner.generation, apiKey) : undefined;
    if (remembered) {
      this.alongside(apiKey, Promise.resolve(remembered));
      return Promise.resolve(NO_NAMES);
    }
    const read = this.connection.bounded(() => this.runner.run(accountAndNames(apiKey, globalKey, byKeyKey)));
    const account = read.then(({ generation, replies: [json, global, key] }) => {
      if (typeof json === 'string' && global == null && key == null) this.remembered.remember({ generation, apiKey, json, globalKey, byKeyKey });
      return decodeJson<AccountRecord>(json);
    });
    this.alongside(apiKey, account);
    return read.then(({ replies: [, global, key] }) => [global, key]);
  }

  /**
   * Whether what this account record was handed out on (from memory) still holds: the same record
   * and no scenario, in the same generation. Always true for a record read fresh.
   */
  async stillCurrent(account: AccountRecord): Promise<boolean> {
    const basis = this.remembered.basisOf(account);
    if (!basis) return true;
    const outcome = await this.connection.bounded(() => this.runner.runAt(basis.generation, accountAndNames(basis.apiKey, basis.globalKey, basis.byKeyKey)));
    const current = outcome.status === 'ok' && outcome.replies[0] === basis.json && outcome.replies[1] == null && outcome.replies[2] == null;
    if (!current) this.remembered.forget(basis);
    return current;
  }

  /** The request's authentication in this turn takes this account read. */
  private alongside(apiKey: string, account: Promise<AccountRecord | undefined>): void {
    // A failure is the authentication's to report, if it takes this read; never unhandled.
    account.catch(() => undefined);
    this.accountsAlongside.set(apiKey, account);
    queueMicrotask(() => {
      if (this.accountsAlongside.get(apiKey) === account) this.accountsAlongside.delete(apiKey);
    });
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

  /**
   * The ids, then their records LINKS_PER_READ at a time, all in the generation of the ids; a link
   * deleted in between is left out. Not bounded by the 2 s of a request, as an account can hold
   * very many links; each read is, so a Redis that is gone fails the first at once.
   */
  async linksOf(accountId: string): Promise<LinkRecord[]> {
    for (let attempt = 0; attempt < LIST_ATTEMPTS; attempt += 1) {
      const listed = await this.runner.run((t, k) => t.read('SMEMBERS', k.linksOf(accountId)));
      const links = await this.linksIn(listed.generation, listed.replies[0] as string[]);
      if (links) return links;
    }
    throw new Error(`store unavailable: the data was replaced ${LIST_ATTEMPTS} times while the links of ${accountId} were read`);
  }

  /**
   * One read from the account's sorted set (redis-link-order.ts), the records and click counts
   * with it. In a generation whose order is still being built (written before it existed), every
   * link of the account is read and sorted, as before the order existed.
   */
  async linkPageOf(accountId: string, { after, limit }: PageRead): Promise<LinkRecord[]> {
    const count = Math.max(0, Math.min(limit, LINKS_PER_READ * 2));
    const [built, records, clicks] = await this.reads((t, k) => pageTxn(t, k, accountId, after, count));
    if (built === '1') return linksFrom([records, clicks]);
    const older = (await this.linksOf(accountId)).filter((link) => !after || olderFirst(link, after) < 0);
    return older.sort((a, b) => olderFirst(b, a)).slice(0, count);
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

  /** The links of these ids in `generation`, a few reads at a time; undefined when it was replaced meanwhile. */
  private async linksIn(generation: string, ids: readonly string[]): Promise<LinkRecord[] | undefined> {
    const links: LinkRecord[] = [];
    for (let start = 0; start < ids.length; start += LINKS_PER_READ * READS_AT_ONCE) {
      const chunks = Array.from({ length: READS_AT_ONCE }, (_, i) => ids.slice(start + i * LINKS_PER_READ, start + (i + 1) * LINKS_PER_READ)).filter((chunk) => chunk.length > 0);
      const outcomes = await Promise.all(chunks.map((chunk) => this.runner.runAt(generation, (t, k) => readLinks(t, k, chunk))));
      for (const outcome of outcomes) {
        if (outcome.status === 'stale') return undefined;
        links.push(...linksFrom(outcome.replies));
      }
    }
    return links;
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
