// Sets a named provider state up (the Pact Verifier asks before each interaction: POST
// /__admin/provider-states). Each state is made true whatever came before, so the interactions of
// a pact pass in any order and again on the same mock. Teardown has nothing to undo. No HTTP here.
import type { Tag } from './api-types.js';
import { setLinkLimit } from './admin-ops.js';
import { errors } from './errors.js';
import type { LinkService } from './links.js';
import type { AccountRecord } from './model.js';
import { newAccount, type SeedAccount } from './new-account.js';
import { knownStateNames, parseStateName, type NamedState, type ProviderStateKind } from './provider-state-names.js';
import { ensureTags, freeSlug, isSlugTaken, putLink, removeLink } from './put-link.js';
import type { RandomInt } from './random.js';
import { API_KEY_SHAPE } from './api-key-shape.js';

export interface ProviderStateDeps {
  service: LinkService;
  /** Seeds an account for a key no account has, as POST /__admin/accounts does. */
  seedAccount: SeedAccount;
  random: RandomInt;
}

/** The state's params as the verifier sends them: values of any JSON type. */
export type StateParams = Readonly<Record<string, unknown>>;

type Values = Record<string, string>;
type Setup = (deps: ProviderStateDeps, values: Values, params: StateParams) => Promise<void>;

const SETUPS: Record<ProviderStateKind, Setup> = {
  account: async (deps, { apiKey }, params) => {
    const account = await ensureAccount(deps, apiKey);
    await ensureTags(deps.service, deps.random, account, tagsParam(params) ?? []);
  },
  roomForLink: async (deps, { apiKey }) => {
    const account = await ensureAccount(deps, apiKey);
    const count = await deps.service.store.linkCount(account.id);
    if (count >= account.linkLimit) await setLinkLimit(deps.service, account.apiKey, count + 1);
  },
  atLinkLimit: async (deps, { apiKey }) => {
    const account = await ensureAccount(deps, apiKey);
    await setLinkLimit(deps.service, account.apiKey, await deps.service.store.linkCount(account.id));
  },
  link: async (deps, { id, apiKey }, params) => {
    const account = await ensureAccount(deps, apiKey);
    const slug = stringParam(params, 'slug');
    const domain = stringParam(params, 'domain');
    const destinationUrl = stringParam(params, 'destinationUrl');
    const tags = tagsParam(params);
    await putLink(deps.service, deps.random, account, { id, ...(tags && { tags }), ...(slug && { slug }), ...(domain && { domain }), ...(destinationUrl && { destinationUrl }) });
  },
  noLink: async (deps, { id }) => removeLink(deps.service, id as string),
  slugTaken: async (deps, { slug, domain }, params) => {
    if (await isSlugTaken(deps.service, domain as string, slug as string)) return;
    // The link that takes it belongs to the account named in params, or to the domain's owner.
    const apiKey = stringParam(params, 'apiKey') ?? (await ownerKey(deps.service, domain as string));
    await putLink(deps.service, deps.random, await ensureAccount(deps, apiKey), { slug: slug as string, domain: domain as string });
  },
  slugFree: async (deps, { slug, domain }) => freeSlug(deps.service, domain as string, slug as string),
};

/**
 * Sets the named states up, in order. Every name is checked first (an unknown one is a 400 naming
 * it and the known ones), so a refusal changes nothing.
 */
export async function setUpProviderStates(deps: ProviderStateDeps, names: readonly string[], params: StateParams = {}): Promise<void> {
  const states = names.map(checkedState);
  for (const named of states) await SETUPS[named.kind](deps, { ...named.values }, params);
}

function checkedState(name: string): NamedState {
  const named = parseStateName(name);
  if (!named) throw errors.invalidRequest(`unknown provider state '${name}'; the mock sets up: ${knownStateNames().map((known) => `'${known}'`).join(', ')}`);
  for (const [field, value] of Object.entries(named.values)) checkValue(field, value);
  return named;
}

/**
 * The values a name carries must be what the API itself accepts (an id as the mock makes them, a
 * slug of the contract's pattern, a key as clients can send it): checked before anything changes,
 * so a state never puts data in the mock that an answer of the API could not show.
 */
const VALUE_RULES: Record<string, { pattern: RegExp; says: string }> = {
  apiKey: API_KEY_SHAPE,
  id: { pattern: /^[A-Za-z0-9_-]{1,64}$/, says: 'letters, digits, _ and -, 1 to 64 characters' },
  slug: { pattern: /^[A-Za-z0-9_-]{1,50}$/, says: 'letters, digits, _ and -, 1 to 50 characters' },
  domain: { pattern: /^[!-~]{1,253}$/, says: 'a domain name without spaces, 1 to 253 characters' },
};

function checkValue(field: string, value: string): void {
  const rule = VALUE_RULES[field];
  if (rule && !rule.pattern.test(value)) throw errors.invalidRequest(`provider state: ${field} '${value.length > 80 ? `${value.slice(0, 77)}...` : value}' must be ${rule.says}`);
}

/** The key's account; a key no account has gets a new one without links, as POST /__admin/accounts makes (the fixture keys exist after a reset). */
async function ensureAccount(deps: ProviderStateDeps, apiKey: string | undefined): Promise<AccountRecord> {
  if (apiKey === undefined) throw errors.invalidRequest('this provider state needs an API key');
  return (await deps.service.store.accountByKey(apiKey)) ?? newAccount(deps.service, deps.seedAccount, { apiKey });
}

/** The API key of the account that owns a custom domain; the default domain needs params.apiKey. */
async function ownerKey(service: LinkService, domain: string): Promise<string> {
  const entry = await service.store.domainByName(domain);
  const owner = entry?.ownerId === undefined ? undefined : (await service.store.accounts()).find((account) => account.id === entry.ownerId);
  if (!owner) throw errors.invalidRequest(`the provider state 'slug … is taken in ${domain}' needs params.apiKey: whose link takes the slug`);
  return owner.apiKey;
}

function stringParam(params: StateParams, field: string): string | undefined {
  const value = params[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '') throw errors.invalidRequest(`provider state params.${field} must be a non-empty string`);
  return value;
}

/** params.tags: [{ id?, name }], as in a Link; anything else is a 400 naming it. */
function tagsParam(params: StateParams): Tag[] | undefined {
  const tags = params['tags'];
  if (tags === undefined || tags === null) return undefined;
  const valid = Array.isArray(tags) && tags.every((tag: unknown) => isTag(tag));
  if (!valid) throw errors.invalidRequest('provider state params.tags must be an array of { id?: string, name: string }');
  return tags as Tag[];
}

const isTag = (tag: unknown): boolean =>
  typeof tag === 'object' && tag !== null && typeof (tag as Tag).name === 'string' && ((tag as Tag).id === undefined || typeof (tag as Tag).id === 'string');
