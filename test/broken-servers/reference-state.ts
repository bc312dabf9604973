// The state of the reference server and the API document's rules over it: accounts with their
// domains, tags and link limit; links; the order of checks on create (D19) and a refusal that
// changes nothing. Each rule that a deliberately broken server gets wrong can be switched off here.
export interface LinkJson {
  id: string;
  createdAt: string;
  destinationUrl: string;
  slug: string;
  domain: { id: string; name: string };
  shortUrl: string;
  clickCount: number;
  tags: { id: string; name: string }[];
}

/** The rules a broken server may get wrong; a correct server sets none. */
export interface RuleBreaks {
  /** Lets any account update and delete any link. */
  ignoresOwner?: boolean;
  /** How the link limit is misapplied (correct: a create over the limit is refused and stores nothing; updates and deletes are never limited). */
  linkLimit?: 'ignored' | 'refused-but-stored' | 'every-write';
  /** Lets an account create links on another account's custom domain. */
  anyAccountsDomain?: boolean;
  /** Lets an account use another account's tag ids. */
  anyAccountsTagIds?: boolean;
  /** Lets two links share a slug in one domain. */
  slugsNotUnique?: boolean;
  /** Makes a new tag for every name sent, even one the account already has. */
  tagsNotReused?: boolean;
  /** Answers a delete as done but keeps the link. */
  deleteKeepsLink?: boolean;
}

export interface Refusal {
  status: number;
  description: string;
  code?: string;
}

type TagRef = { id?: string; name: string };
type Tag = { id: string; name: string };
export interface CreateRequest {
  destinationUrl: string;
  domain: string;
  slug?: string;
  tags: TagRef[];
}
export interface UpdateRequest {
  destinationUrl?: string;
  tags?: TagRef[];
}
interface Account {
  key: string;
  domains: string[];
  linkLimit: number;
  tags: Tag[];
}
export interface StoredLink {
  owner: string;
  link: LinkJson;
}

const DEFAULT_DOMAIN = 'short.test';

/** Like the mock's fixture accounts of the same keys: limited-key starts at its link limit. */
export const REFERENCE_ACCOUNTS: Readonly<Record<string, { domains: string[]; linkLimit: number; seededLinks: number }>> = {
  'demo-key': { domains: [DEFAULT_DOMAIN, 'go.acme.test'], linkLimit: 1_000_000, seededLinks: 0 },
  'other-key': { domains: [DEFAULT_DOMAIN, 'links.globex.test'], linkLimit: 1_000, seededLinks: 0 },
  'limited-key': { domains: [DEFAULT_DOMAIN], linkLimit: 2, seededLinks: 2 },
};
export const REFERENCE_LIMITED_LINK_ID = 'lnk_limited-key_1';

export const isRefusal = (value: LinkJson | Refusal): value is Refusal => 'status' in value;
const limitReached = (account: Account): Refusal => ({ status: 400, description: `the account has reached its limit of ${account.linkLimit} links`, code: 'LINK_LIMIT_REACHED' });

export class ReferenceState {
  private readonly accounts = new Map<string, Account>();
  private readonly links = new Map<string, StoredLink>();
  private counter = 0;

  constructor(private readonly breaks: RuleBreaks = {}) {
    for (const [key, spec] of Object.entries(REFERENCE_ACCOUNTS)) {
      const account: Account = { key, domains: spec.domains, linkLimit: spec.linkLimit, tags: [] };
      this.accounts.set(key, account);
      for (let n = 1; n <= spec.seededLinks; n += 1) this.store(account, { destinationUrl: `https://example.com/${key}/${n}`, domain: DEFAULT_DOMAIN, slug: `${key}-${n}`, tags: [] }, [], `lnk_${key}_${n}`);
    }
  }

  hasAccount(key: string): boolean {
    return this.accounts.has(key);
  }

  atLimit(key: string): boolean {
    const account = this.accounts.get(key);
    return account !== undefined && [...this.links.values()].filter((stored) => stored.owner === key).length >= account.linkLimit;
  }

  /** After the body shape (checked by the caller): link limit → domain → tag ids → slug (D19). */
  create(key: string, request: CreateRequest): LinkJson | Refusal {
    const account = this.accounts.get(key)!;
    if (!this.atLimit(key) || this.breaks.linkLimit === 'ignored') return this.createWithinLimit(account, request);
    if (this.breaks.linkLimit === 'refused-but-stored') this.createWithinLimit(account, request);
    return limitReached(account);
  }

  update(key: string, stored: StoredLink, request: UpdateRequest): LinkJson | Refusal {
    const account = this.accounts.get(key)!;
    const refused = request.tags && this.checkTagIds(account, request.tags);
    if (refused) return refused;
    const tags = request.tags ? this.tagsFor(account, request.tags) : stored.link.tags;
    stored.link = { ...stored.link, destinationUrl: request.destinationUrl ?? stored.link.destinationUrl, tags };
    return stored.link;
  }

  find(id: string, key: string): StoredLink | undefined {
    const stored = this.links.get(id);
    return stored && (this.breaks.ignoresOwner || stored.owner === key) ? stored : undefined;
  }

  remove(stored: StoredLink): void {
    if (!this.breaks.deleteKeepsLink) this.links.delete(stored.link.id);
  }

  limitRefusal(key: string): Refusal {
    return limitReached(this.accounts.get(key)!);
  }

  private createWithinLimit(account: Account, request: CreateRequest): LinkJson | Refusal {
    const usable = this.breaks.anyAccountsDomain ? [...this.accounts.values()].flatMap((other) => other.domains) : account.domains;
    if (!usable.includes(request.domain)) return { status: 404, description: `domain '${request.domain}' not found` };
    const refused = this.checkTagIds(account, request.tags);
    if (refused) return refused;
    const slug = request.slug || this.freeSlug(request.domain);
    if (this.taken(request.domain, slug) && !this.breaks.slugsNotUnique) return { status: 400, description: `slug '${slug}' is already taken in domain '${request.domain}'` };
    // Tags are made only now: a refused request must not leave a new tag behind.
    return this.store(account, { ...request, slug }, this.tagsFor(account, request.tags));
  }

  private store(account: Account, request: CreateRequest & { slug: string }, tags: Tag[], id = this.nextId('lnk')): LinkJson {
    const { destinationUrl, domain, slug } = request;
    const link: LinkJson = { id, createdAt: new Date().toISOString(), destinationUrl, slug, domain: { id: `dom_${domain}`, name: domain }, shortUrl: `https://${domain}/${slug}`, clickCount: 0, tags };
    this.links.set(id, { owner: account.key, link });
    return link;
  }

  /** D9: an id unknown to the account is 404; an id with another tag's name is 400. */
  private checkTagIds(account: Account, tags: TagRef[]): Refusal | undefined {
    const known = this.breaks.anyAccountsTagIds ? [...this.accounts.values()].flatMap((other) => other.tags) : account.tags;
    for (const tag of tags.filter((candidate) => candidate.id !== undefined)) {
      const found = known.find((existing) => existing.id === tag.id);
      if (!found) return { status: 404, description: `tag '${tag.id}' not found` };
      if (found.name !== tag.name.trim()) return { status: 400, description: `tag '${tag.id}' is named '${found.name}', not '${tag.name}'` };
    }
    return undefined;
  }

  /** D10: tags match by trimmed name; a new name makes a tag in the account; duplicates collapse. */
  private tagsFor(account: Account, tags: TagRef[]): Tag[] {
    const names = [...new Set(tags.map((tag) => tag.name.trim()))];
    return names.map((name) => {
      const existing = this.breaks.tagsNotReused ? undefined : account.tags.find((tag) => tag.name === name);
      if (existing) return existing;
      const made = { id: this.nextId('tag'), name };
      account.tags.push(made);
      return made;
    });
  }

  private taken(domain: string, slug: string): boolean {
    return [...this.links.values()].some(({ link }) => link.domain.name === domain && link.slug === slug);
  }

  private freeSlug(domain: string): string {
    let slug = '';
    while (slug === '' || this.taken(domain, slug)) slug = `r${(++this.counter).toString(36).padStart(6, '0')}`;
    return slug;
  }

  private nextId(prefix: string): string {
    return `${prefix}_${(++this.counter).toString(36).padStart(8, '0')}`;
  }
}
