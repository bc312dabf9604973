// What a check works with: the target, a client, the independent checker, and call(), which sends
// one request of an operation and fails the check unless the answer has the expected status AND
// keeps the contract (documented status, content type, schema). Every exchange of every check is
// judged, set-up requests included.
import { jsonBody, type ContractClient, type Exchange } from './client.js';
import { CheckFailure, NotChecked } from './check-failures.js';
import { skipIfGone, type NextContract } from './next-contract.js';
import type { ResponseChecker } from './response-checker.js';

export interface Target {
  baseUrl: string;
  apiKey: string;
  /** A second account, for isolation; without it those checks are not checked. */
  otherApiKey?: string;
  /** A domain every account of the API key can use (default short.test). */
  domain: string;
  /** A second domain of the same account, for "the same slug in another domain". */
  otherDomain?: string;
  /** A custom domain of the second account: not discoverable through the API, so given. */
  otherAccountDomain?: string;
  /** An account already at its link limit, for LINK_LIMIT_REACHED on any server. */
  limitedApiKey?: string;
  /** A link of that account the suite may update: the API cannot list an account's links. */
  limitedLinkId?: string;
}

export interface CallOptions {
  /** The path's one parameter ({id}; a read FILE adds may name it otherwise). */
  id?: string;
  /** Query parameters (the reads a contract FILE adds). */
  query?: Record<string, string>;
  json?: unknown;
  rawBody?: string;
  /** Default: the target's key; null sends none. */
  apiKey?: string | null;
  headers?: Record<string, string>;
  /** The status the check requires. */
  expect?: number;
  /** The request in words, for the failure message. */
  what?: string;
}

export interface Answer {
  exchange: Exchange;
  status: number;
  body: unknown;
}

export interface LinkView {
  id: string;
  slug: string;
  destinationUrl: string;
  shortUrl: string;
  domain: { id: string; name: string };
  tags: { id?: string; name: string }[];
}

export const DESTINATION = 'https://example.com/contract-suite';
const SLUG_MAX = 50;

/** FNV-1a of a label, in base 36. */
function labelHash(label: string): string {
  let hash = 2166136261;
  for (let index = 0; index < label.length; index++) hash = Math.imul(hash ^ label.charCodeAt(index), 16777619);
  return (hash >>> 0).toString(36);
}

/** JSON with every object's members sorted by name. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    typeof member === 'object' && member !== null && !Array.isArray(member) ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : member,
  );
}

export class CheckContext {
  constructor(
    readonly target: Target,
    readonly client: ContractClient,
    readonly checker: ResponseChecker,
    /** Unique per run, so repeated runs against a persistent server never collide. */
    readonly runId: string,
    /** The longest slug the contract's create request takes (a next contract may tighten it, issue 38). */
    private readonly slugMax = SLUG_MAX,
    /** The contract FILE and what it changes (issue 38); undefined for the shipped contract. */
    readonly next?: NextContract,
  ) {}

  slug(label: string): string {
    const slug = `${this.runId}-${label}`;
    if (slug.length <= this.slugMax) return slug;
    // Too long for the contract: the run's tail and the label's hash, still unique per run and label.
    return `${this.runId.slice(-6)}${labelHash(label)}`.slice(-this.slugMax);
  }

  /** A valid create body with a unique slug on the target's domain. */
  linkBody(label: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return { destinationUrl: `${DESTINATION}/${label}`, domain: this.target.domain, slug: this.slug(label), tags: [], ...overrides };
  }

  async call(operationId: string, options: CallOptions = {}): Promise<Answer> {
    skipIfGone(this.next, operationId);
    const operation = this.checker.operation(operationId);
    const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
    const path = operation.path.replace(/\{[^}/]+\}/, encodeURIComponent(options.id ?? '')) + query;
    const apiKey = options.apiKey === null ? undefined : (options.apiKey ?? this.target.apiKey);
    const exchange = await this.client.send({
      method: operation.method,
      path,
      apiKey,
      ...(options.json === undefined ? {} : { json: options.json }),
      ...(options.rawBody === undefined ? {} : { rawBody: options.rawBody }),
      ...(options.headers ? { headers: options.headers } : {}),
    });
    const what = `${operationId}${options.what ? ` with ${options.what}` : ''}`;
    if (exchange.networkError) throw new CheckFailure(`${what}: ${exchange.networkError}`, exchange);
    const problems: string[] = [];
    if (options.expect !== undefined && exchange.status !== options.expect) problems.push(`expected ${options.expect}, got ${exchange.status}`);
    problems.push(...this.checker.checkResponse(operationId, exchange.status, exchange.contentType, exchange.bodyText));
    if (problems.length > 0) throw new CheckFailure(`${what}: ${problems.join('; ')}`, exchange);
    return { exchange, status: exchange.status, body: jsonBody(exchange) };
  }

  /** Creates a link (201 required) and returns it; the runner deletes it at the end. */
  async createLink(label: string, overrides: Record<string, unknown> = {}, apiKey?: string): Promise<LinkView & { exchange: Exchange }> {
    const answer = await this.call('createLink', { json: this.linkBody(label, overrides), expect: 201, what: `a valid body (${label})`, ...(apiKey ? { apiKey } : {}) });
    return { ...(answer.body as LinkView), exchange: answer.exchange };
  }

  /** Fails the check unless actual equals expected (compared as JSON; an object's members in any order, as JSON has no order of members). */
  expectEqual(actual: unknown, expected: unknown, what: string, exchange: Exchange): void {
    if (canonical(actual) !== canonical(expected)) {
      throw new CheckFailure(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`, exchange);
    }
  }

  fail(reason: string, exchange?: Exchange): never {
    throw new CheckFailure(reason, exchange);
  }

  notChecked(reason: string): never {
    throw new NotChecked(reason);
  }

  /**
   * After a create was refused: an account allowed to create there creates the same slug in the
   * same domain (201 required), which shows that the refused create left no link under that slug.
   * Returns the new link (deleted at the end) and a note saying what this can and cannot show.
   */
  async expectSlugFree(label: string, overrides: Record<string, unknown>, refusedTo: string, apiKey?: string): Promise<{ link: LinkView; note: string; exchange: Exchange }> {
    const body = this.linkBody(label, overrides);
    const where = `the slug '${String(body['slug'])}' in '${String(body['domain'])}'`;
    const by = apiKey ? 'the second account, whose domain it is' : 'the main account';
    const answer = await this.call('createLink', { json: body, expect: 201, what: `${where}, refused to ${refusedTo}, from ${by} (it must still be free)`, ...(apiKey ? { apiKey } : {}) });
    const note = `nothing was created as far as the public API shows: ${where} was still free afterwards (the API cannot list links, so a link stored under another slug would not show)`;
    return { link: answer.body as LinkView, note, exchange: answer.exchange };
  }

  requireOtherAccount(): string {
    return this.target.otherApiKey ?? this.notChecked('no second account: pass --other-api-key (CONTRACT_OTHER_API_KEY) to check isolation between accounts');
  }

  requireLimitedAccount(): string {
    return this.target.limitedApiKey ?? this.notChecked('no account at its link limit: pass --limited-api-key (CONTRACT_LIMITED_API_KEY) to check LINK_LIMIT_REACHED on this server');
  }
}
