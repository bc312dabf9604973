// The references inside the data must hold, or requests fail later with a 500 (a link naming a tag
// that is not there cannot be shown). A db that breaks them (edited by hand, or mixed by a crash
// of an older version in the middle of a reset) is refused at start, like a corrupt file. So is a
// name the API keeps unique that two records share (a slug in a domain, a tag name in an account):
// the indexes would keep one and lose the other. One pass over the records with map lookups:
// O(accounts + tags + links + tag references), the links' in the walk that indexes them
// (src/store/file/checked-state.ts).
import { isLinkRecord } from '../../core/changes.js';
import type { LinkRecord, MockData } from '../../core/model.js';

/**
 * What is wrong: a reference that does not hold, or (`notALink`) a link that is not a link record at
 * all, which the caller reports as data that is not ours rather than as a broken reference. The
 * links' shape is checked here, in the one walk of a million links, not in a walk of its own.
 */
export interface Problem {
  text: string;
  notALink?: true;
}

/**
 * The check, in two parts: the accounts', domains' and tags' when made, then each link's as it is
 * taken (`linkProblem`), in the one walk of the links that also indexes them (checked-state.ts).
 * The slugs taken are the index's (a link's slug taken twice: `slugProblem`).
 */
export class IntegrityCheck {
  private readonly accounts = new Set<string>();
  /** Domain id → its owner's account id; undefined owner: the default domain, usable by all (D8). */
  private readonly domains: Map<string, string | undefined>;
  /** A tag list shared by links (frozen: src/core/tag-lists.ts) → the account it was last found right for: checked once per account, not per link. */
  private readonly rightLists = new Map<readonly string[], string>();

  /** What is wrong with the accounts, domains or tags, if anything: then the links are not to be taken. */
  readonly headProblem: Problem | undefined;

  constructor(private readonly data: MockData) {
    this.domains = new Map([[data.defaultDomain.id, undefined]]);
    const text = referencesProblem(data, this.accounts, this.domains);
    this.headProblem = text === undefined ? undefined : { text };
  }

  /** What is wrong with the link stored under `id` but for its slug, if anything. */
  linkProblem(id: string, link: unknown): Problem | undefined {
    if (!isLinkRecord(link)) return { text: `link '${id}' is not a link`, notALink: true };
    const problem = linkProblem(this.data, id, link, this.accounts, this.domains) ?? this.tagsProblem(link);
    return problem === undefined ? undefined : { text: `link '${id}' ${problem}` };
  }

  private tagsProblem(link: LinkRecord): string | undefined {
    const shared = Object.isFrozen(link.tagIds);
    if (shared && this.rightLists.get(link.tagIds) === link.accountId) return undefined;
    const problem = tagsProblem(this.data, link);
    if (shared && problem === undefined) this.rightLists.set(link.tagIds, link.accountId);
    return problem;
  }

  /**
   * The link under `id` has the slug of one taken before. Which one is looked for only now: the
   * index keeps no second holder, and a Map of a million slugs to their ids was a third of the
   * check's time and memory at start.
   */
  slugProblem(id: string, link: LinkRecord): Problem {
    const { domainId, slug } = link;
    const other = [...this.data.links.values()].find((link) => link.domainId === domainId && link.slug === slug && link.id !== id)?.id;
    return { text: `link '${id}' has slug '${slug}' of link '${other}' in domain '${domainId}'` };
  }
}

/** The accounts', domains' and tags' part; fills `accounts` and `domains` for the links' part. */
function referencesProblem(data: MockData, accounts: Set<string>, domains: Map<string, string | undefined>): string | undefined {
  for (const account of data.accounts) {
    if (accounts.has(account.id)) return `account '${account.id}' appears twice`;
    accounts.add(account.id);
    for (const domain of account.domains) {
      if (domains.has(domain.id)) return `domain '${domain.id}' appears twice`;
      domains.set(domain.id, account.id);
    }
  }
  const tagNames: Holders = new Map();
  for (const id in data.tags) {
    const tag = data.tags[id];
    if (tag?.id !== id) return `tag '${id}' is stored under another id ('${tag?.id}')`;
    if (!accounts.has(tag.accountId)) return `tag '${id}' names unknown account '${tag.accountId}'`;
    const other = firstHolder(tagNames, tag.accountId, tag.name, id);
    if (other) return `tag '${id}' has the name '${tag.name}' of tag '${other}' in account '${tag.accountId}'`;
  }
  return undefined;
}

/** Scope (an account) → name → the id that holds it. Nested: no joined key to escape. */
type Holders = Map<string, Map<string, string>>;

/** The id that took `name` in `scope` first, or undefined when `id` is the first (and now holds it). */
function firstHolder(holders: Holders, scope: string, name: string, id: string): string | undefined {
  let names = holders.get(scope);
  if (!names) holders.set(scope, (names = new Map()));
  const holder = names.get(name);
  if (holder === undefined) names.set(name, id);
  return holder;
}

function linkProblem(data: MockData, id: string, link: LinkRecord, accounts: Set<string>, domains: Map<string, string | undefined>): string | undefined {
  if (link.id !== id) return `is stored under another id ('${link.id}')`;
  if (!accounts.has(link.accountId)) return `names unknown account '${link.accountId}'`;
  if (!domains.has(link.domainId)) return `names unknown domain '${link.domainId}'`;
  const owner = domains.get(link.domainId);
  if (owner !== undefined && owner !== link.accountId) return `is on domain '${link.domainId}' of another account`;
  return undefined;
}

function tagsProblem(data: MockData, link: LinkRecord): string | undefined {
  for (const tagId of link.tagIds) {
    const tag = Object.hasOwn(data.tags, tagId) ? data.tags[tagId] : undefined;
    if (!tag) return `names unknown tag '${tagId}'`;
    if (tag.accountId !== link.accountId) return `names tag '${tagId}' of another account`;
  }
  return undefined;
}
