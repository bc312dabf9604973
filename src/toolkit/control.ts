// The control surface of a running mock, over its admin API: what a test suite does between its
// tests (reset, scenarios, limits, clicks, snapshots, journal, coverage, fresh accounts). One
// implementation for startMock() and connectMock(), so both behave the same.
import type { Link } from '../core/api-types.js';
import { AdminClient, adminTimeoutMs, type AdminClientOptions } from './admin-client.js';
import type { Account, ActiveScenario, Coverage, Health, JournalEntry, JournalFilter, ResetResult, Snapshot, VarietyDimension, VarietyOverview, VarietySetting, ViolationReport, ViolationSide } from './admin-types.js';

/** The API keys of the default fixture accounts (fixtures/accounts.json). */
export interface FixtureApiKeys {
  /** `demo-key`: a roomy account (1,000,000 links) with the custom domain `go.acme.test`. */
  demoKey: string;
  /** `other-key`: a second account with its own custom domain, for isolation tests. */
  otherKey: string;
  /** `limited-key`: an account already at its link limit: a create answers `LINK_LIMIT_REACHED`. */
  limitedKey: string;
}

export const FIXTURE_API_KEYS: Readonly<FixtureApiKeys> = Object.freeze({ demoKey: 'demo-key', otherKey: 'other-key', limitedKey: 'limited-key' });

/** What `account()` may fix about the new account: it starts with no links unless `seedLinks` asks for some. */
export interface AccountOptions {
  /** Its display name. Default: `Account for key ` and the key's first and last characters. */
  name?: string;
  /** Its link limit. */
  linkLimit?: number;
  /** Its API key; a key already taken is refused (409). Default: a fresh key chosen by the mock. */
  apiKey?: string;
  /** Links seeded from the key, 0 to 1000 and at most `linkLimit`. Default: 0, the account starts empty. */
  seedLinks?: number;
}

/** Options of `useScenario()`. */
export interface ScenarioOptions {
  /** Scope the scenario to this API key: requests with other keys are unaffected, and its `times` counters are this key's own. */
  apiKey?: string;
  /** It shapes this many requests (1 to 1,000,000), then clears itself; GET /__admin/scenario shows the uses left. Default: until cleared. */
  times?: number;
}

/** Options of `useVariety()`. */
export interface VarietyOptions {
  /** Only this API key's requests are varied (parallel suites stay isolated); default: every request. */
  apiKey?: string;
  /** Exactly these dimensions (names from `varietyDimensions()`); default: the seed picks among all. */
  only?: readonly string[];
  /** Never these dimensions. */
  except?: readonly string[];
}

/** Controls a running mock through its admin API. Every method rejects with an AdminApiError when the mock refuses. */
export interface MockControl {
  /** The mock's base URL, without a trailing slash: point the client under test here. */
  readonly url: string;
  /** The API keys of the default fixture accounts. */
  readonly apiKeys: Readonly<FixtureApiKeys>;
  /** Health and counts (`GET /__admin/health`). */
  health(): Promise<Health>;
  /** Back to the seeded fixtures; the scenarios' `times` counters start over (`POST /__admin/reset`). */
  reset(): Promise<ResetResult>;
  /** Sets the global scenario, or clears it with null; with `{ apiKey }` only for that key (`PUT /__admin/scenario`). */
  useScenario(name: string | null, options?: ScenarioOptions): Promise<ActiveScenario>;
  /** Variety mode: every answer drawn under `seed` from the answers the contract allows (`PUT /__admin/variety`). */
  useVariety(seed: number, options?: VarietyOptions): Promise<VarietySetting>;
  /** Variety off, globally or for `{ apiKey }` (`DELETE /__admin/variety`). */
  clearVariety(options?: { apiKey?: string }): Promise<void>;
  /** The variety settings on now (`GET /__admin/variety`). */
  variety(): Promise<VarietyOverview>;
  /** Every dimension of variety, with a one-line description (`GET /__admin/variety/dimensions`). */
  varietyDimensions(): Promise<VarietyDimension[]>;
  /** The journal of recent API requests, oldest first, optionally filtered (`GET /__admin/requests`). */
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** Empties the journal (`DELETE /__admin/requests`). */
  clearJournal(): Promise<void>;
  /** Which documented outcomes each key's client has met and which not; one key's with `apiKey` (`GET /__admin/coverage`). */
  coverage(apiKey?: string): Promise<Coverage>;
  /** Sets an account's link limit (`PUT /__admin/accounts/{apiKey}/limit`). */
  setLinkLimit(apiKey: string, linkLimit: number): Promise<Account>;
  /** An account's links as the API shows them, newest first, every page (`GET /__admin/links?account=&cursor=`). */
  links(apiKey: string): Promise<Link[]>;
  /** Simulates `count` clicks on a link; returns the link with its new clickCount (`POST /__admin/links/{id}/clicks`). */
  addClicks(linkId: string, count: number): Promise<Link>;
  /** Saves the whole state under a name, replacing a snapshot of that name (`POST /__admin/snapshots/{name}`). */
  snapshot(name: string): Promise<Snapshot>;
  /** Brings a saved state back (`POST /__admin/snapshots/{name}/restore`). */
  restore(name: string): Promise<ResetResult>;
  /** A fresh, isolated account for one test file or worker (`POST /__admin/accounts`). */
  account(options?: AccountOptions): Promise<Account>;
  /** Proxy mode: the distinct contract violations seen, by operation and status, of one side or both (`GET /__admin/violations?side=`). */
  violations(side?: ViolationSide): Promise<ViolationReport>;
  /** Forgets them, to start a run from zero (`DELETE /__admin/violations`). */
  clearViolations(): Promise<void>;
}

/** Options of connectMock(). */
export interface ConnectOptions extends AdminClientOptions {}

/** The control surface over an admin client. */
export function controlOf(client: AdminClient): MockControl {
  const key = encodeURIComponent;
  return {
    url: client.baseUrl,
    apiKeys: FIXTURE_API_KEYS,
    health: () => client.call<Health>('GET', '/health'),
    reset: () => client.call<ResetResult>('POST', '/reset'),
    useScenario: (name, options = {}) =>
      client.call<ActiveScenario>('PUT', '/scenario', { name, ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }), ...(options.times === undefined ? {} : { times: options.times }) }),
    useVariety: (seed, options = {}) => client.call<VarietySetting>('PUT', '/variety', { seed, ...options }),
    clearVariety: (options = {}) => client.call<void>('DELETE', '/variety', undefined, { apiKey: options.apiKey }),
    variety: () => client.call<VarietyOverview>('GET', '/variety'),
    varietyDimensions: async () => (await client.call<{ dimensions: VarietyDimension[] }>('GET', '/variety/dimensions')).dimensions,
    journal: async (filter = {}) => (await client.call<{ entries: JournalEntry[] }>('GET', '/requests', undefined, { ...filter })).entries,
    clearJournal: () => client.call<void>('DELETE', '/requests'),
    coverage: (apiKey) => client.call<Coverage>('GET', '/coverage', undefined, { account: apiKey }),
    setLinkLimit: (apiKey, linkLimit) => client.call<Account>('PUT', `/accounts/${key(apiKey)}/limit`, { linkLimit }),
    links: (apiKey) => allLinks(client, apiKey),
    addClicks: (linkId, count) => client.call<Link>('POST', `/links/${key(linkId)}/clicks`, { count }),
    snapshot: (name) => client.call<Snapshot>('POST', `/snapshots/${key(name)}`),
    restore: (name) => client.call<ResetResult>('POST', `/snapshots/${key(name)}/restore`),
    account: (options = {}) => client.call<Account>('POST', '/accounts', options),
    violations: (side) => client.call<ViolationReport>('GET', '/violations', undefined, { side }),
    clearViolations: () => client.call<void>('DELETE', '/violations'),
  };
}

/**
 * The control surface of a mock already running elsewhere (a CI service container, a shared
 * deployment on Redis). Checks once that the mock answers (and accepts the token) before returning.
 */
export async function connectMock(url: string, options: ConnectOptions = {}): Promise<MockControl> {
  const control = controlOf(new AdminClient(url, { ...options, timeoutMs: adminTimeoutMs('connectMock: options.timeoutMs', options.timeoutMs) }));
  await control.health();
  return control;
}

/** Pages followed at most: a million links, at the 1,000 of a page. */
const MAX_PAGES = 1_000;

/** Every page of the account's links, one after the other (the admin API answers 1,000 at most per page). */
async function allLinks(client: AdminClient, apiKey: string): Promise<Link[]> {
  const links: Link[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await client.call<{ links: Link[]; nextCursor?: string }>('GET', '/links', undefined, { account: apiKey, ...(cursor === undefined ? {} : { cursor }) });
    links.push(...answer.links);
    cursor = answer.nextCursor;
    if (cursor === undefined) return links;
  }
  throw new Error(`GET /__admin/links: the links of ${apiKey} ran past ${MAX_PAGES} pages`);
}
