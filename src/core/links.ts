// The link rules of the API (D5-D19) over a LinkStore. Knows nothing of HTTP or files: every
// method either returns the API's Link or throws an ApiError. The checks run in the order of D19.
// A create decides on the facts it read and the store stores it only if the contended ones (the
// limit, new tag names, the slug) still hold at that moment (link-store.ts), so a refused request
// changes nothing and every rule holds across all the instances that share one store (D22). A
// change is acknowledged only once the store has made it as durable as it makes changes.
import type { CreateLinkRequest, Link, UpdateLinkRequest } from './api-types.js';
import { accountForNewKey, admitNewKey, UnmadeAccount, type AccountFactory } from './any-key-accounts.js';
import { destinationChange, type LinkChange, type LinkStore, type NewLink } from './link-store.js';
import { andThen, type Awaitable } from './awaitable.js';
import { ApiError, errors, ReadAgain } from './errors.js';
import { toLink } from './link-view.js';
import { isoTime } from './iso-time.js';
import type { LinkShape } from './link-shape.js';
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from './model.js';
import { newId, randomString, type RandomInt } from './random.js';
import { notSaved, saved } from './saved.js';
import { checkTags, claimTags, resolveTags, type ResolvedTags } from './tags.js';

export const RANDOM_SLUG_LENGTH = 7;
/** A create decided again this often when others took its random slug or named its new tags first. */
const CREATE_ATTEMPTS = 100;

export interface LinkServiceDeps {
  store: LinkStore;
  createAccount?: AccountFactory;
  /** With createAccount: no account is made for a new key once the store holds this many (--max-any-key-accounts). */
  maxAccounts?: number;
  random: RandomInt;
  now: () => Date;
  /** With a contract FILE that adds or removes Link fields (--contract): how Links are shaped; absent: as the shipped contract shows them. */
  shape?: LinkShape;
}

/** A create as decided: the link with the facts it was decided on (the store's NewLink), and its domain. */
interface Decision {
  created: NewLink;
  domain: DomainRecord;
}

export class LinkService {
  readonly store: LinkStore;
  /** How a contract FILE shapes Links (--contract), for every view of a link; undefined with the shipped contract. */
  readonly shape: LinkShape | undefined;

  constructor(private readonly deps: LinkServiceDeps) {
    this.store = deps.store;
    this.shape = deps.shape;
  }

  /**
   * The account of an API key, made now for an unknown key under --accept-any-key; a missing or
   * unknown key is a 401 (D14). At once when the store has it at once (never a throw: a refusal is
   * a rejected promise).
   */
  authenticate(apiKey: string | undefined): Awaitable<AccountRecord> {
    return andThen(this.admit(apiKey), (found) => this.accountToServe(found));
  }

  /**
   * Authentication's 401s (D14) without making anything: the key's account, or, for an unknown key
   * under --accept-any-key, an UnmadeAccount that accountToServe makes once a request of it is
   * served. A refusal is a rejected promise, never a throw.
   */
  admit(apiKey: string | undefined): Awaitable<AccountRecord | UnmadeAccount> {
    if (apiKey === undefined || apiKey === '') return Promise.reject(errors.missingApiKey());
    try {
      return andThen(this.store.accountByKey(apiKey), (account) => account ?? admitNewKey(this.store, apiKey, this.deps.createAccount, this.deps.maxAccounts));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The account a request is served on: an admitted key's own, made now when it had none (its cap checked again). */
  accountToServe(admitted: AccountRecord | UnmadeAccount): Awaitable<AccountRecord> {
    if (!(admitted instanceof UnmadeAccount)) return admitted;
    return accountForNewKey(this.store, admitted.apiKey, this.deps.createAccount, this.deps.maxAccounts).then((account) => {
      if (!account) throw errors.unknownApiKey();
      return account;
    });
  }

  /**
   * Whether the facts an account was handed out on still hold (a store may hand out what it
   * remembers, and check it in the create's own write); true at once when the store never does.
   */
  stillCurrent(account: AccountRecord | undefined): Awaitable<boolean> {
    return account === undefined || !this.store.stillCurrent ? true : this.store.stillCurrent(account);
  }

  /**
   * `newLinkId`: another shape of id for the new link (variety mode); the usual one without.
   * Decided, then stored only if what it was decided on still holds; decided again (up to
   * CREATE_ATTEMPTS times) when others took its random slug or named its new tags first. Promise
   * reactions, not an async function looping over awaits: on a store that decides at once, a
   * create is one reaction on the store's write (an async function was a promise and a resumption
   * more per create, bench/create-cost.md).
   */
  create(account: AccountRecord, input: CreateLinkRequest, newLinkId?: () => string): Promise<Link> {
    try {
      return this.attempt(account, input, newLinkId, 1, undefined);
    } catch (error) {
      // A store that throws where it should reject: a rejection still, as from an async function.
      return Promise.reject(error);
    }
  }

  /** Attempt `attempt` of a create; `domain`: what the one before was decided on. */
  private attempt(account: AccountRecord, input: CreateLinkRequest, newLinkId: (() => string) | undefined, attempt: number, domain: DomainRecord | undefined): Promise<Link> {
    if (attempt > CREATE_ATTEMPTS) return Promise.reject(errors.internal(`no free random slug found in domain '${domain?.name ?? input.domain}' after ${CREATE_ATTEMPTS} attempts`));
    const decision = this.decideCreate(account, input, newLinkId);
    if (decision instanceof Promise) return decision.then((decided) => this.storeDecided(account, input, newLinkId, attempt, decided));
    return this.storeDecided(account, input, newLinkId, attempt, decision);
  }

  /** Stores a decided create, and answers by what the store said of its facts. */
  private storeDecided(account: AccountRecord, input: CreateLinkRequest, newLinkId: (() => string) | undefined, attempt: number, { created, domain }: Decision): Promise<Link> {
    // One reaction for both ends (as saved() does for a write that fails, notSaved).
    return this.store.createLink(created).then((outcome) => {
      if (outcome === 'stored') return this.view(created.link);
      if (outcome === 'reread') throw new ReadAgain();
      if (outcome === 'limit') throw errors.linkLimitReached(account.linkLimit);
      if (outcome === 'gone') throw errors.notSaved('the data was replaced (reset or snapshot restore) while this request ran');
      if (outcome === 'slug' && input.slug) throw errors.slugTaken(input.slug, domain.name);
      // A random slug or an id taken, or a new tag named by another request first: decide again on what is there now.
      return this.attempt(account, input, newLinkId, attempt + 1, domain);
    }, notSaved);
  }

  /** The link to create, after the checks that need no claim (domain, tags); at once on a store that answers at once. */
  private decideCreate(account: AccountRecord, input: CreateLinkRequest, newLinkId: (() => string) | undefined): Awaitable<Decision> {
    try {
      const decision = andThen(this.usableDomain(account, input.domain), (domain) =>
        andThen(checkTags(this.store, account, input.tags), (plan) =>
          andThen(resolveTags(this.store, account, plan, this.deps.random), (tags) => this.newLink(account, input, domain, tags, newLinkId)),
        ),
      );
      return decision instanceof Promise ? decision.catch((error: unknown) => this.limitFirst(account, error)) : decision;
    } catch (error) {
      return this.limitFirst(account, error);
    }
  }

  private newLink(account: AccountRecord, input: CreateLinkRequest, domain: DomainRecord, tags: ResolvedTags, newLinkId: (() => string) | undefined): Decision {
    const link: LinkRecord = {
      id: newLinkId ? newLinkId() : newId(this.deps.random, 'lnk'),
      accountId: account.id,
      domainId: domain.id,
      // An empty slug asks for a random one, like none.
      slug: input.slug || randomString(this.deps.random, RANDOM_SLUG_LENGTH),
      destinationUrl: input.destinationUrl,
      createdAt: isoTime(this.deps.now()),
      clickCount: 0,
      tagIds: tags.tagIds,
    };
    if (this.deps.shape) link.extra = this.deps.shape.created(input as unknown as Record<string, unknown>, link.id);
    return { created: { link, account, linkLimit: account.linkLimit, newTags: tags.created }, domain };
  }

  /**
   * The limit comes first in D19: a request the checks refuse is told of the limit instead when
   * the account is full.
   */
  private async limitFirst(account: AccountRecord, error: unknown): Promise<never> {
    if (error instanceof ApiError && (await this.store.linkCount(account.id)) >= account.linkLimit) throw errors.linkLimitReached(account.linkLimit);
    throw error;
  }

  async update(account: AccountRecord, id: string, input: UpdateLinkRequest): Promise<Link> {
    // Each step awaited only when the store answered with a promise: at once in memory mode.
    const found = this.linkOf(account, id);
    const link = found instanceof Promise ? await found : found;
    const planned = input.tags && andThen(checkTags(this.store, account, input.tags), (plan) => claimTags(this.store, account, plan, this.deps.random));
    const tags = planned instanceof Promise ? await planned : planned;
    const change: LinkChange = input.destinationUrl === undefined ? {} : destinationChange(link, input.destinationUrl);
    if (tags) change.tagIds = tags.tagIds;
    const sent = this.deps.shape?.updated(input as unknown as Record<string, unknown>);
    if (sent) change.extra = { ...link.extra, ...sent };
    const updated = await saved(this.store.updateLink(link, change, tags?.created ?? []));
    // Deleted while this update ran: the delete wins, never a link brought back (D22).
    if (!updated) throw errors.linkNotFound(id);
    return this.view(updated);
  }

  /** One link of the account (a read a contract FILE adds, --contract); another account's is not there (D15). */
  async read(account: AccountRecord, id: string): Promise<Link> {
    return this.view(await this.linkOf(account, id));
  }

  async delete(account: AccountRecord, id: string): Promise<void> {
    const found = this.linkOf(account, id);
    const link = found instanceof Promise ? await found : found;
    if (!(await saved(this.store.deleteLink(link)))) throw errors.linkNotFound(id);
  }

  /** The link as the API shows it. */
  view(link: LinkRecord): Awaitable<Link> {
    const domain = this.store.domainById(link.domainId);
    const tags = link.tagIds.map((tagId) => this.store.tagById(tagId));
    // A memory store has them at once: no Promise.all and its microtasks on every answer, and no
    // array made and taken apart again (a rest element walks an iterator).
    if (domain instanceof Promise || tags.some((tag) => tag instanceof Promise)) return Promise.all([domain, Promise.all(tags)]).then(([found, named]) => this.shown(link, found, named));
    return this.shown(link, domain as DomainRecord | undefined, tags as (TagRecord | undefined)[]);
  }

  private shown(link: LinkRecord, domain: DomainRecord | undefined, tags: ReadonlyArray<TagRecord | undefined>): Link {
    const view = toLink(link, domain, tags);
    return this.shape ? this.shape.shown(view, link) : view;
  }

  /** Replaces all data (reset, snapshot restore) and writes it. */
  async replaceData(data: MockData): Promise<void> {
    await this.store.replaceAll(data);
  }

  /** The link if it exists and belongs to this account; another account's link is not there (D15). */
  private linkOf(account: AccountRecord, id: string): Awaitable<LinkRecord> {
    return andThen(this.store.linkById(id), (link) => {
      if (!link || link.accountId !== account.id) throw errors.linkNotFound(id);
      return link;
    });
  }

  /** The default domain or one of the account's own (D8). */
  private usableDomain(account: AccountRecord, name: string): Awaitable<DomainRecord> {
    return andThen(this.store.domainByName(name), (entry) => {
      if (!entry || (entry.ownerId !== undefined && entry.ownerId !== account.id)) throw errors.domainNotFound(name);
      return entry.domain;
    });
  }
}
