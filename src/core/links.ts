// The link rules of the API (D5-D19) over a LinkStore. Knows nothing of HTTP or files: every
// method either returns the API's Link or throws an ApiError. The checks run in the order of D19,
// and what they claim in the store (a place under the limit, a slug) is given back when a later
// check refuses, so a refused request changes nothing, and every rule holds across all the
// instances that share one store (D22). A change is acknowledged only once the store has made it
// as durable as it makes changes.
import type { CreateLinkRequest, Link, UpdateLinkRequest } from '../api-types.js';
import { isStoreUnavailable, type LinkChange, type LinkStore, type SeededAccount } from '../store/link-store.js';
import { ApiError, errors } from './errors.js';
import { toLink } from './link-view.js';
import type { AccountRecord, DomainRecord, LinkRecord, MockData } from './model.js';
import { newId, randomString, type RandomInt } from './random.js';
import { checkTags, claimTags } from './tags.js';

export const RANDOM_SLUG_LENGTH = 7;
const RANDOM_SLUG_ATTEMPTS = 100;

/** --accept-any-key: the account seeded for an unknown key (undefined: unknown keys are a 401). */
export type AccountFactory = (apiKey: string) => SeededAccount | Promise<SeededAccount>;

export interface LinkServiceDeps {
  store: LinkStore;
  createAccount?: AccountFactory;
  random: RandomInt;
  now: () => Date;
}

type Release = () => Promise<void>;

export class LinkService {
  readonly store: LinkStore;

  constructor(private readonly deps: LinkServiceDeps) {
    this.store = deps.store;
  }

  /** The account of an API key; a missing or unknown key is a 401 (D14). */
  async authenticate(apiKey: string | undefined): Promise<AccountRecord> {
    if (apiKey === undefined || apiKey === '') throw errors.missingApiKey();
    const account = (await this.store.accountByKey(apiKey)) ?? (await this.accountForNewKey(apiKey));
    if (!account) throw errors.unknownApiKey();
    return account;
  }

  async create(account: AccountRecord, input: CreateLinkRequest): Promise<Link> {
    const { store } = this;
    if (!(await store.reserveLinkSlot(account.id, account.linkLimit))) throw errors.linkLimitReached(account.linkLimit);
    const claims: Release[] = [() => store.releaseLinkSlot(account.id)];
    try {
      const domain = await this.usableDomain(account, input.domain);
      const plan = await checkTags(store, account, input.tags);
      const id = newId(this.deps.random, 'lnk');
      const slug = input.slug ? await this.claimSlug(domain, input.slug, id) : await this.claimRandomSlug(domain, id);
      claims.push(() => store.releaseSlug(domain.id, slug, id));
      const tags = await claimTags(store, account, plan, this.deps.random);
      const link: LinkRecord = {
        id,
        accountId: account.id,
        domainId: domain.id,
        slug,
        destinationUrl: input.destinationUrl,
        createdAt: this.deps.now().toISOString(),
        clickCount: 0,
        tagIds: tags.tagIds,
      };
      await saved(store.insertLink(link, tags.created));
      return await this.view(link);
    } catch (error) {
      for (const release of claims.reverse()) await release();
      throw error;
    }
  }

  async update(account: AccountRecord, id: string, input: UpdateLinkRequest): Promise<Link> {
    const link = await this.linkOf(account, id);
    const tags = input.tags && (await claimTags(this.store, account, await checkTags(this.store, account, input.tags), this.deps.random));
    const change: LinkChange = {
      ...(input.destinationUrl === undefined ? {} : { destinationUrl: input.destinationUrl }),
      ...(tags ? { tagIds: tags.tagIds } : {}),
    };
    const updated = await saved(this.store.updateLink(link, change, tags?.created ?? []));
    // Deleted while this update ran: the delete wins, never a link brought back (D22).
    if (!updated) throw errors.linkNotFound(id);
    return this.view(updated);
  }

  async delete(account: AccountRecord, id: string): Promise<void> {
    const link = await this.linkOf(account, id);
    if (!(await saved(this.store.deleteLink(link)))) throw errors.linkNotFound(id);
  }

  /** The link as the API shows it. */
  async view(link: LinkRecord): Promise<Link> {
    const [domain, ...tags] = await Promise.all([this.store.domainById(link.domainId), ...link.tagIds.map((tagId) => this.store.tagById(tagId))]);
    return toLink(link, domain as DomainRecord | undefined, tags as Parameters<typeof toLink>[2]);
  }

  /** Replaces all data (reset, snapshot restore) and writes it. */
  async replaceData(data: MockData): Promise<void> {
    await this.store.replaceAll(data);
  }

  /** The link if it exists and belongs to this account; another account's link is not there (D15). */
  private async linkOf(account: AccountRecord, id: string): Promise<LinkRecord> {
    const link = await this.store.linkById(id);
    if (!link || link.accountId !== account.id) throw errors.linkNotFound(id);
    return link;
  }

  /** The default domain or one of the account's own (D8). */
  private async usableDomain(account: AccountRecord, name: string): Promise<DomainRecord> {
    const entry = await this.store.domainByName(name);
    if (!entry || (entry.ownerId !== undefined && entry.ownerId !== account.id)) throw errors.domainNotFound(name);
    return entry.domain;
  }

  private async claimSlug(domain: DomainRecord, slug: string, linkId: string): Promise<string> {
    if (!(await this.store.claimSlug(domain.id, slug, linkId))) throw errors.slugTaken(slug, domain.name);
    return slug;
  }

  private async claimRandomSlug(domain: DomainRecord, linkId: string): Promise<string> {
    for (let attempt = 0; attempt < RANDOM_SLUG_ATTEMPTS; attempt += 1) {
      const slug = randomString(this.deps.random, RANDOM_SLUG_LENGTH);
      if (await this.store.claimSlug(domain.id, slug, linkId)) return slug;
    }
    throw errors.internal(`no free random slug found in domain '${domain.name}' after ${RANDOM_SLUG_ATTEMPTS} attempts`);
  }

  /** With --accept-any-key, an unknown key becomes its own account on first use. */
  private async accountForNewKey(apiKey: string): Promise<AccountRecord | undefined> {
    if (!this.deps.createAccount) return undefined;
    const seeded = await this.deps.createAccount(apiKey);
    try {
      return await this.store.addAccount(seeded);
    } catch (error) {
      throw errors.internal(`--accept-any-key: ${(error as Error).message}`);
    }
  }
}

/**
 * A write the store could not make durable was not made (the store undid it): a 500 that says
 * so, and loses nothing (a full or read-only disk, Redis gone).
 */
export async function saved<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    // Unreachable data (Redis gone) says so itself, and is answered as such (D25).
    if (error instanceof ApiError || isStoreUnavailable(error)) throw error;
    throw errors.notSaved((error as Error).message);
  }
}
