// The references inside the data must hold, or requests fail later with a 500 (a link naming a tag
// that is not there cannot be shown). A db that breaks them (edited by hand, or mixed by a crash
// of an older version in the middle of a reset) is refused at start, like a corrupt file. So is a
// name the API keeps unique that two records share (a slug in a domain, a tag name in an account):
// the indexes would keep one and lose the other. One pass over the records with map lookups:
// O(accounts + tags + links + tag references).
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
 * What is wrong, in a few words, or undefined when every reference holds. `linkIds`: the keys of
 * data.links when the caller has them already (collecting the keys of 1,000,000 links is seconds).
 */
export function integrityProblem(data: MockData, linkIds: Iterable<string> = Object.keys(data.links)): Problem | undefined {
  const accounts = new Set<string>();
  /** Domain id → its owner's account id; undefined owner: the default domain, usable by all (D8). */
  const domains = new Map<string, string | undefined>([[data.defaultDomain.id, undefined]]);
  const text = referencesProblem(data, accounts, domains);
  return text === undefined ? linksProblem(data, linkIds, accounts, domains) : { text };
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

/**
 * The links' part. The slugs taken are kept per domain in Sets, names only: who took a slug first is
 * looked for only when one is taken twice (a Map of a million slugs to their ids was a third of the
 * check's time and memory at start).
 */
function linksProblem(data: MockData, linkIds: Iterable<string>, accounts: Set<string>, domains: Map<string, string | undefined>): Problem | undefined {
  const slugs = new Map<string, Set<string>>();
  for (const id of linkIds) {
    // One lookup of the link in a million: each is a miss in the CPU's caches.
    const link = data.links[id];
    if (!isLinkRecord(link)) return { text: `link '${id}' is not a link`, notALink: true };
    const problem = linkProblem(data, id, link, accounts, domains);
    if (problem) return { text: `link '${id}' ${problem}` };
    const { domainId, slug } = link;
    let taken = slugs.get(domainId);
    if (!taken) slugs.set(domainId, (taken = new Set()));
    if (!taken.has(slug)) {
      taken.add(slug);
      continue;
    }
    const other = Object.values(data.links).find((link) => link.domainId === domainId && link.slug === slug && link.id !== id)?.id;
    return { text: `link '${id}' has slug '${slug}' of link '${other}' in domain '${domainId}'` };
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
  for (const tagId of link.tagIds) {
    const tag = Object.hasOwn(data.tags, tagId) ? data.tags[tagId] : undefined;
    if (!tag) return `names unknown tag '${tagId}'`;
    if (tag.accountId !== link.accountId) return `names tag '${tagId}' of another account`;
  }
  return undefined;
}
