// Every error the mock can answer, as data: a status, a description and an optional code. The
// HTTP layer turns an ApiError into the spec's Error object in one place (src/http/errors.ts).
import type { ErrorCode } from './api-types.js';
import { namedList } from './named-list.js';

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 422 | 500 | 502 | 503;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly errorDescription: string,
    readonly code?: ErrorCode,
  ) {
    super(errorDescription);
    this.name = 'ApiError';
  }
}

/**
 * Not an answer yet: the request was decided on an account the store handed out from memory, and
 * that, or the key's scenarios, changed meanwhile. Nothing was written; the request is to be
 * handled again from its first read (src/http/read-again.ts). Should it reach the error handler
 * (changes kept coming), it is the documented 500 of a store that cannot answer (D25).
 */
export class ReadAgain extends Error {
  constructor() {
    super('store unavailable: the account or the scenarios of this API key kept changing while the request ran');
    this.name = 'ReadAgain';
  }
}

/**
 * A refusal of the mock's own controls (an unknown x-mock-scenario, a bad Prefer code): a 400 of
 * the mock, not an answer of the API. The journal gives it the verdict 'mock-control', and
 * coverage and `pact export` leave it out, as a provider could never be asked to give it.
 */
export class ControlRefused extends ApiError {
  constructor(errorDescription: string) {
    super(400, errorDescription);
    this.name = 'ControlRefused';
  }
}

const cut = (value: string): string => (value.length > 80 ? `${value.slice(0, 77)}...` : value);
const quote = (value: string): string => `'${cut(value)}'`;

/** `POST /links, PUT /links/{id} and DELETE /links/{id}`; `no operations` for a contract without any. */
const operationList = (operations: readonly string[]): string => namedList(operations.map(cut)) || 'no operations';

export const errors = {
  missingApiKey: () => new ApiError(401, 'The x-api-key header is missing'),
  unknownApiKey: () => new ApiError(401, 'The x-api-key header names no account'),
  anyKeyCapReached: (cap: number) =>
    new ApiError(
      401,
      `The x-api-key header names no account, and none is made for it: the mock holds ${cap} accounts, the cap of --accept-any-key (--max-any-key-accounts ${cap}); a reset removes the accounts keys made`,
    ),
  anyKeyNotShaped: (shape: string) => new ApiError(401, `The x-api-key header names no account, and none is made for it: --accept-any-key makes accounts of keys that are ${shape}`),
  invalidRequest: (description: string) => new ApiError(400, description),
  keyScenariosFull: (bound: number) =>
    new ApiError(400, `at most ${bound} API keys may have a scenario of their own; clear one first (PUT /__admin/scenario with "name": null and its "apiKey")`),
  linkLimitReached: (limit: number) =>
    new ApiError(400, `The account has reached its limit of ${limit} links`, 'LINK_LIMIT_REACHED'),
  domainNotFound: (name: string) => new ApiError(404, `domain ${quote(name)} not found`),
  tagNotFound: (id: string) => new ApiError(404, `tag ${quote(id)} not found`),
  tagNameMismatch: (id: string, sent: string, actual: string) =>
    new ApiError(400, `tag ${quote(id)} is named ${quote(actual)}, not ${quote(sent)}`),
  slugTaken: (slug: string, domain: string) =>
    new ApiError(400, `slug ${quote(slug)} is already taken in domain ${quote(domain)}`),
  linkNotFound: (id: string) => new ApiError(404, `link ${quote(id)} not found`),
  /** `operations`: the served contract's, `POST /links` and so on (OperationTable.operations). */
  pathNotFound: (method: string, path: string, operations: readonly string[]) =>
    new ApiError(404, `no operation at ${method} ${quote(path)}: the API has ${operationList(operations)}`),
  rootNotFound: (operations: readonly string[]) =>
    new ApiError(404, `no operation at GET /: the API has ${operationList(operations)}; the console is at /__admin/ and the API reference at /docs`),
  methodNotAllowed: (method: string, path: string, allowed: string[]) =>
    new ApiError(405, `method ${method} is not allowed on ${quote(path)}; allowed: ${allowed.join(', ')}`),
  shortUrlNotFound: (domain: string, slug: string) => new ApiError(404, `no link at https://${domain}/${slug}`),
  accountNotFound: (apiKey: string) => new ApiError(404, `no account with API key ${quote(apiKey)}`),
  adminRouteNotFound: (method: string, path: string) =>
    new ApiError(404, `no admin route at ${method} ${quote(path)}; the admin API is described at /__admin/openapi.yaml`),
  apiKeyTaken: (apiKey: string) => new ApiError(409, `API key ${quote(apiKey)} already names an account; send another key, or none for a random one`),
  /** A provider state lost a race: another set-up (or request) took the link id or slug, or the data changed, between its reads and its write. */
  stateRaced: (what: string) => new ApiError(409, `${what} meanwhile, by another provider-state set-up or request; nothing was changed by this one: set the state up again`),
  snapshotNotFound: (name: string) => new ApiError(404, `snapshot ${quote(name)} not found`),
  adminTokenRequired: () => new ApiError(401, 'the admin API needs the x-admin-token header (the server was started with --admin-token)'),
  adminHostRefused: (host: string) =>
    new ApiError(
      403,
      `the admin API answers only loopback host names (localhost, 127.0.0.1, [::1]) when no --admin-token is set, not ${quote(host)}; start the mock with --allowed-host ${host.length > 80 ? '<name>' : host} to allow it`,
    ),
  adminOriginRefused: (origin: string) =>
    new ApiError(403, `the admin API refuses changes from another origin (${quote(origin)}); use the console at /__admin/ or a client that sends no Origin`),
  tooManyStreams: (max: number) =>
    new ApiError(503, `the mock serves at most ${max} journal streams at once, and ${max} are open; close one (or try again later)`),
  notSaved: (reason: string) => new ApiError(500, `the change could not be saved, so it was not made: ${reason}`),
  internal: (description: string) => new ApiError(500, description),
  /** Proxy mode: the upstream could not be reached, failed or was too slow; 502 is outside the contract, as the README says. */
  upstreamFailed: (url: string, reason: string) => new ApiError(502, `the upstream ${url} gave no answer: ${reason}`),
  /** Proxy mode with --proxy-strict: the upstream answered, but off the contract. */
  upstreamBrokeContract: (operation: string, status: number, rules: readonly string[]) =>
    new ApiError(502, `the upstream's ${status} answer to ${operation} breaks the contract (--proxy-strict): ${rules.join('; ')}`),
  /** D25: the data cannot be reached (Redis gone); the description starts `store unavailable: `. */
  storeUnavailable: (description: string) => new ApiError(500, description),
};
