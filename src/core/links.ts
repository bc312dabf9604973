// The link rules of the API (D5-D19) over the indexed state. Knows nothing of HTTP or files:
// every method either returns the API's Link or throws an ApiError, and a refused request changes
// nothing because every check runs before the first mutation. `persist` is awaited before a
// method returns, so an acknowledged change is as durable as the store makes it.
import type { CreateLinkRequest, Link, UpdateLinkRequest } from '../api-types.js';
import type { Change, StoreOp } from './changes.js';
import { errors } from './errors.js';
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from './model.js';
import { newId, randomString, type RandomInt } from './random.js';
import { MockState } from './state.js';
import { resolveTags } from './tags.js';

export const RANDOM_SLUG_LENGTH = 7;
const RANDOM_SLUG_ATTEMPTS = 100;

/** --accept-any-key: makes a fresh account for an unknown key (undefined: unknown keys are a 401). */
export type AccountFactory = (apiKey: string, state: MockState) => { account: AccountRecord; tags: TagRecord[]; links: LinkRecord[] };

/** True when a seeded record would take the id of a record already there. */
function reusesAnId(state: MockState, seeded: ReturnType<AccountFactory>): boolean {
  return (
    state.accountById(seeded.account.id) !== undefined ||
    seeded.tags.some((tag) => Object.hasOwn(state.data.tags, tag.id)) ||
    seeded.links.some((link) => state.linkById(link.id) !== undefined)
  );
}

export interface LinkServiceDeps {
  data: MockData;
  createAccount?: AccountFactory;
  /** Makes changes durable; awaited before a change is acknowledged. */
  persist: (ops: StoreOp[]) => Promise<void>;
  random: RandomInt;
  now: () => Date;
}

export class LinkService {
  private current: MockState;

  constructor(private readonly deps: LinkServiceDeps) {
    this.current = new MockState(deps.data);
  }

  get state(): MockState {
    return this.current;
  }

  /** The account of an API key; a missing or unknown key is a 401 (D14). */
  authenticate(apiKey: string | undefined): AccountRecord {
    if (apiKey === undefined || apiKey === '') throw errors.missingApiKey();
    const account = this.current.accountByKey(apiKey) ?? this.accountForNewKey(apiKey);
    if (!account) throw errors.unknownApiKey();
    return account;
  }

  /** With --accept-any-key, an unknown key becomes its own account on first use. */
  private accountForNewKey(apiKey: string): AccountRecord | undefined {
    if (!this.deps.createAccount) return undefined;
    const state = this.current;
    const seeded = this.deps.createAccount(apiKey, state);
    // Records point to their account by id, so a reused id would share the records between two
    // keys. Ids drawn from the key's SHA-256 make this next to impossible; refused, never risked.
    if (reusesAnId(state, seeded)) throw errors.internal(`--accept-any-key: the account seeded for this key would reuse an existing id; use another key`);
    state.addAccount(seeded.account);
    for (const tag of seeded.tags) state.addTag(tag);
    for (const link of seeded.links) state.addLink(link);
    // Written with the request's own change, or by the next write; a lost new account is re-made
    // from its key identically, so nothing a client was told is lost.
    const changes: Change[] = [
      { op: 'put-account', account: seeded.account },
      ...seeded.tags.map((tag): Change => ({ op: 'put-tag', tag })),
      ...seeded.links.map((link): Change => ({ op: 'put-link', link })),
    ];
    void this.deps.persist(changes).catch(() => undefined);
    return seeded.account;
  }

  async create(account: AccountRecord, input: CreateLinkRequest): Promise<Link> {
    const state = this.current;
    if (state.linkCount(account) >= account.linkLimit) throw errors.linkLimitReached(account.linkLimit);
    const domain = state.usableDomain(account, input.domain);
    if (!domain) throw errors.domainNotFound(input.domain);
    const tags = resolveTags(state, account, input.tags, this.deps.random);
    const slug = input.slug ? this.requireFreeSlug(domain, input.slug) : this.randomFreeSlug(domain);
    const link: LinkRecord = {
      id: newId(this.deps.random, 'lnk'),
      accountId: account.id,
      domainId: domain.id,
      slug,
      destinationUrl: input.destinationUrl,
      createdAt: this.deps.now().toISOString(),
      clickCount: 0,
      tagIds: tags.tagIds,
    };
    for (const tag of tags.created) state.addTag(tag);
    state.addLink(link);
    await this.save([...tags.created.map((tag): Change => ({ op: 'put-tag', tag })), { op: 'put-link', link }], () => {
      state.removeLink(link);
      for (const tag of tags.created) state.removeTag(tag);
    });
    return state.toLink(link);
  }

  async update(account: AccountRecord, id: string, input: UpdateLinkRequest): Promise<Link> {
    const state = this.current;
    const link = state.linkOf(account, id);
    if (!link) throw errors.linkNotFound(id);
    const tags = input.tags && resolveTags(state, account, input.tags, this.deps.random);
    const before = { destinationUrl: link.destinationUrl, tagIds: link.tagIds };
    if (input.destinationUrl !== undefined) link.destinationUrl = input.destinationUrl;
    if (tags) {
      for (const tag of tags.created) state.addTag(tag);
      link.tagIds = tags.tagIds;
    }
    await this.save([...(tags?.created ?? []).map((tag): Change => ({ op: 'put-tag', tag })), { op: 'put-link', link }], () => {
      Object.assign(link, before);
      for (const tag of tags?.created ?? []) state.removeTag(tag);
    });
    return state.toLink(link);
  }

  async delete(account: AccountRecord, id: string): Promise<void> {
    const state = this.current;
    const link = state.linkOf(account, id);
    if (!link) throw errors.linkNotFound(id);
    state.removeLink(link);
    await this.save([{ op: 'delete-link', id: link.id }], () => state.addLink(link));
  }

  /**
   * Makes changes durable, or undoes them and fails: the state in memory never holds a change
   * that is not on disk (a full or read-only disk refuses the request, and loses nothing).
   */
  private async save(changes: Change[], undo: () => void): Promise<void> {
    try {
      await this.deps.persist(changes);
    } catch (error) {
      undo();
      throw errors.notSaved((error as Error).message);
    }
  }

  /** Replaces all data (reset, snapshot restore) and writes it. */
  async replaceData(data: MockData): Promise<void> {
    this.current = new MockState(data);
    await this.deps.persist([{ op: 'replace', data }]);
  }

  /** Runs a change of the admin API against the state, then makes it durable (or undoes it). */
  async mutate<T>(change: (state: MockState) => { result: T; changes: Change[]; undo: () => void }): Promise<T> {
    const { result, changes, undo } = change(this.current);
    await this.save(changes, undo);
    return result;
  }

  private requireFreeSlug(domain: DomainRecord, slug: string): string {
    if (this.current.isSlugTaken(domain.id, slug)) throw errors.slugTaken(slug, domain.name);
    return slug;
  }

  private randomFreeSlug(domain: DomainRecord): string {
    for (let attempt = 0; attempt < RANDOM_SLUG_ATTEMPTS; attempt += 1) {
      const slug = randomString(this.deps.random, RANDOM_SLUG_LENGTH);
      if (!this.current.isSlugTaken(domain.id, slug)) return slug;
    }
    throw errors.internal(`no free random slug found in domain '${domain.name}' after ${RANDOM_SLUG_ATTEMPTS} attempts`);
  }
}
