// Where the Redis store keeps each fact. Two levels under the prefix (D20):
//   <prefix>generation     string: the generation whose keys hold the data now (D24)
//   <prefix>generations    sorted set: every generation written and not yet deleted, scored by
//                          the time its writing began (what a crashed writer leaves is swept)
//   <prefix><gen>:…        the data of one generation (below); replaced as a whole, never edited
//                          after its generation stops being current (every write checks it).
// A generation's data is a handful of hashes, one set per account and nothing per link, so that
// one request touches few keys, a snapshot is one atomic copy (then read in batches), and deleting
// a generation is cheap:
//   meta         formatVersion, seed, defaultDomain (JSON), seededBy (the CLIENT ID of the
//                connection that wrote it: redis-generations.ts, keptFrom)
//   accounts     apiKey → AccountRecord JSON        account-ids  accountId → apiKey
//   account-order list of apiKeys, in the order accounts came
//   domains      lower-cased name → {domain, ownerId?} JSON      domain-ids  id → DomainRecord JSON
//   links        linkId → LinkRecord JSON without clickCount (updates compare-and-set this field)
//   clicks       linkId → clickCount (incremented in place, never read-modify-write)
//   slugs        "<domainId>/<slug>" → the id of the link that has it (a domain id has no '/')
//   link-counts  accountId → how many links the account has (what a create checks the limit on)
//   tags         tagId → TagRecord JSON          tag-names  "<accountId>/<name>" → TagRecord JSON
//   links-of:<accountId>  set of the account's link ids
//   links-by-time:<accountId>  sorted set of the account's links in the order of its pages, every
//                score 0 and each member `<createdAt, NUL escaped><NUL NUL><id>` (redis-link-order.ts),
//                so that ZREVRANGEBYLEX reads a page newest first; written in the same script as
//                the link. meta's `link-order` field is '1' once it holds every link (a generation
//                written before it is given one at start, in batches: redis-link-order.ts).
//   frozen:<read id>:<key>  a copy of meta, account-order, accounts, tags, links and clicks made at
//                one moment for a snapshot's read, read in batches, then deleted (or expired).
// A generation is 16 hex digits, so these names never meet the keys other parts of the mock keep
// under the same prefix (the traffic state's `<prefix>traffic:…`): a deletion matches only
// `<prefix><gen>:*` of one generation. Nor the keys of another mock's prefix: a prefix holding 16
// hex digits and ':' after its first character is refused (prefixCollision), since it could be
// `<another prefix><its generation>:`, whose keys a reset through that other prefix deletes.
// Every other pair of prefixes, one a prefix of the other or not, names disjoint keys.
// Redis Cluster: the store's scripts touch several of these keys, and the generation key, at once,
// so every key of one mock must hash to one slot: the prefix would be wrapped as a hash tag,
// `{shortlink-mock:}…`. One mock's data is small enough for one slot.

export const DEFAULT_REDIS_PREFIX = 'shortlink-mock:';

/** 16 hex digits and ':' after the first character: what `<another prefix><its generation>:` holds. */
const GENERATION_INSIDE = /.[0-9a-f]{16}:/;

/**
 * Why this prefix could name another mock's data (undefined: it cannot). A prefix P + <gen> + ':'
 * lies inside the generation <gen> of the prefix P, and is deleted with it at P's next reset.
 */
export function prefixCollision(prefix: string): string | undefined {
  if (!GENERATION_INSIDE.test(prefix)) return undefined;
  return `'${prefix}' holds 16 hex digits and ':' after its first character, as the data keys of another prefix do (<prefix><16 hex digits>:…), which a reset through that prefix deletes; leave out the ':' after hex digits or use fewer of them`;
}

export class RedisKeys {
  readonly generation: string;
  readonly generations: string;

  constructor(readonly prefix: string) {
    this.generation = `${prefix}generation`;
    this.generations = `${prefix}generations`;
  }

  private last: GenerationKeys | undefined;

  /** The keys of one generation's data (made once per generation: every call of the store asks). */
  of(gen: string): GenerationKeys {
    if (this.last?.generation !== gen) this.last = new GenerationKeys(gen, `${this.prefix}${gen}:`);
    return this.last;
  }

  /** A SCAN pattern matching exactly the keys of one generation (the prefix may hold glob characters). */
  patternOf(gen: string): string {
    return `${escapeGlob(`${this.prefix}${gen}:`)}*`;
  }
}

export class GenerationKeys {
  readonly meta: string;
  readonly accounts: string;
  readonly accountIds: string;
  readonly accountOrder: string;
  readonly domains: string;
  readonly domainIds: string;
  readonly links: string;
  readonly clicks: string;
  readonly slugs: string;
  readonly linkCounts: string;
  readonly tags: string;
  readonly tagNames: string;

  constructor(
    readonly generation: string,
    private readonly base: string,
  ) {
    this.meta = `${base}meta`;
    this.accounts = `${base}accounts`;
    this.accountIds = `${base}account-ids`;
    this.accountOrder = `${base}account-order`;
    this.domains = `${base}domains`;
    this.domainIds = `${base}domain-ids`;
    this.links = `${base}links`;
    this.clicks = `${base}clicks`;
    this.slugs = `${base}slugs`;
    this.linkCounts = `${base}link-counts`;
    this.tags = `${base}tags`;
    this.tagNames = `${base}tag-names`;
  }

  linksOf(accountId: string): string {
    return `${this.base}links-of:${accountId}`;
  }

  linksByTime(accountId: string): string {
    return `${this.base}links-by-time:${accountId}`;
  }

  /** A copy of one of these keys frozen for a snapshot's read (redis-snapshot-read.ts); gone after it, or expired. */
  frozen(readId: string, key: string): string {
    return `${this.base}frozen:${readId}:${key.slice(this.base.length)}`;
  }
}

/** The field of a slug in the `slugs` hash. */
export const slugField = (domainId: string, slug: string): string => `${domainId}/${slug}`;

/** The field of a tag name in the `tag-names` hash: the account's id first, which has no '/'. */
export const tagNameField = (accountId: string, name: string): string => `${accountId}/${name}`;

/** Domain names match case-insensitively (D8). */
export const domainField = (name: string): string => name.trim().toLowerCase();

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}
