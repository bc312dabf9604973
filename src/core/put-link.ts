// Admin changes that put the data into a named shape, for provider states (src/core/provider-states.ts):
// a link with a given id, slug, domain and tags in an account; no link with an id; a free slug.
// Everything goes through the LinkStore interface (createLink, updateLink, deleteLink,
// claimTagName), so it works on every store, and the link rules stay the core's: a domain is
// usable only by its owner (D8), a slug is unique in its domain (D11). No HTTP here.
import type { Link, Tag } from './api-types.js';
import { errors, type ApiError } from './errors.js';
import { destinationChange, type CreateOutcome } from './link-store.js';
import { isoTime } from './iso-time.js';
import { RANDOM_SLUG_LENGTH, type LinkService } from './links.js';
import { saved } from './saved.js';
import type { AccountRecord, DomainRecord, LinkRecord } from './model.js';
import { newId, randomString, type RandomInt } from './random.js';

/** What a link must be; what is left out is the store's choice (a new id, a random slug, the default domain). */
export interface LinkToPut {
  id?: string;
  slug?: string;
  /** A domain name the account may use; default: the default domain. */
  domain?: string;
  destinationUrl?: string;
  /** The link's tags, exactly (left out: as they are); an id is kept when it is free, so requests that name it find it. */
  tags?: readonly Tag[];
}

const DEFAULT_DESTINATION = 'https://example.com/';

/** The link as wanted, in this account: made, or changed, or moved here; whatever held its slug makes way. */
export async function putLink(service: LinkService, random: RandomInt, account: AccountRecord, wanted: LinkToPut): Promise<Link> {
  const { store } = service;
  const existing = wanted.id === undefined ? undefined : await store.linkById(wanted.id);
  const own = existing?.accountId === account.id ? existing : undefined;
  // What the state leaves open stays as the account's link has it.
  const domain = own && wanted.domain === undefined ? ((await store.domainById(own.domainId)) as DomainRecord) : await usableDomain(service, account, wanted.domain);
  const tagIds = await ensureTags(service, random, account, wanted.tags ?? []);
  if (own && own.domainId === domain.id && (wanted.slug === undefined || wanted.slug === own.slug)) {
    const change = { ...(wanted.tags === undefined ? {} : { tagIds }), ...(wanted.destinationUrl === undefined ? {} : destinationChange(own, wanted.destinationUrl)) };
    const changed = await saved(store.updateLink(own, change, []));
    if (changed) return service.view(changed);
  }
  if (existing) await saved(store.deleteLink(existing));
  const slug = wanted.slug ?? randomString(random, RANDOM_SLUG_LENGTH);
  await freeSlugIn(service, domain, slug);
  const link: LinkRecord = {
    id: wanted.id ?? newId(random, 'lnk'),
    accountId: account.id,
    domainId: domain.id,
    slug,
    destinationUrl: wanted.destinationUrl ?? DEFAULT_DESTINATION,
    createdAt: isoTime(new Date()),
    clickCount: 0,
    tagIds,
  };
  // A state is set up whatever the account's limit: that is a state of its own.
  const outcome = await saved(store.createLink({ link, linkLimit: Number.MAX_SAFE_INTEGER, newTags: [] }));
  if (outcome !== 'stored') throw refusal(link, domain, outcome);
  return service.view(link);
}

/**
 * Why the create of a state's link was refused: what it checked was taken or gone after it read.
 * Two set-ups racing for one link id or slug: the first wins, the other is this 409 (issue 23).
 */
function refusal(link: LinkRecord, domain: DomainRecord, outcome: Exclude<CreateOutcome, 'stored'>): ApiError {
  const taken: Partial<Record<typeof outcome, string>> = {
    id: `the link ${link.id} could not be put in place: its id was taken`,
    slug: `the link ${link.id} could not be put in place: its slug '${link.slug}' in ${domain.name} was taken`,
    gone: `the link ${link.id} could not be put in place: its account, domain or a tag was removed (a reset or a restore)`,
  };
  const what = taken[outcome];
  return what ? errors.stateRaced(what) : errors.internal(`the link ${link.id} could not be put in place (${outcome})`);
}

/** No link with this id in any account, afterwards. */
export async function removeLink(service: LinkService, id: string): Promise<void> {
  const link = await service.store.linkById(id);
  if (link) await saved(service.store.deleteLink(link));
}

/** No link at https://<domain>/<slug>, afterwards (an unknown domain holds no slug). */
export async function freeSlug(service: LinkService, domainName: string, slug: string): Promise<void> {
  const entry = await service.store.domainByName(domainName);
  if (entry) await freeSlugIn(service, entry.domain, slug);
}

/** Whether a link holds this slug in that domain (an unknown domain holds none). */
export async function isSlugTaken(service: LinkService, domainName: string, slug: string): Promise<boolean> {
  const entry = await service.store.domainByName(domainName);
  return entry !== undefined && (await service.store.linkAt(entry.domain.id, slug)) !== undefined;
}

/**
 * The account's tags of these names, made where missing, in order and without duplicates. A tag
 * sent with an id keeps that id when the account has no tag of that name yet and the id is free.
 */
export async function ensureTags(service: LinkService, random: RandomInt, account: AccountRecord, tags: readonly Tag[]): Promise<string[]> {
  const ids: string[] = [];
  for (const tag of tags) {
    const byId = tag.id === undefined ? undefined : await service.store.tagById(tag.id);
    const own = byId?.accountId === account.id ? byId : undefined;
    const id = own?.id ?? (tag.id !== undefined && byId === undefined ? tag.id : newId(random, 'tag'));
    const record = own ?? (await saved(service.store.claimTagName({ id, accountId: account.id, name: tag.name.trim() }))).tag;
    if (!ids.includes(record.id)) ids.push(record.id);
  }
  return ids;
}

async function freeSlugIn(service: LinkService, domain: DomainRecord, slug: string): Promise<void> {
  const holder = await service.store.linkAt(domain.id, slug);
  if (holder) await saved(service.store.deleteLink(holder));
}

/** The default domain, or one of the account's own (D8): another account's domain is a 404. */
async function usableDomain(service: LinkService, account: AccountRecord, name: string | undefined): Promise<DomainRecord> {
  if (name === undefined) return service.store.defaultDomain();
  const entry = await service.store.domainByName(name);
  if (!entry || (entry.ownerId !== undefined && entry.ownerId !== account.id)) throw errors.domainNotFound(name);
  return entry.domain;
}
