// `pact export` as data: the journal's entries and the accounts in, a Pact V3 file out. One
// interaction per distinct outcome the client caused (operation × status × error code), the first
// seen, in the journal's order; the request as the client sent it, with the account's real key in
// place of the journal's masked one; the answer with matchers for generated values; the provider
// states that make the outcome happen again. Pure: no HTTP, no files.
import type { JournalEntry } from '../core/journal.js';
import { expectedError, expectedLink, isErrorObject, isLink, type ExpectedBody } from './export-bodies.js';
import { PACT_SPECIFICATION_VERSION, type PactFile, type PactInteraction, type PactRequest, type PactResponse } from './export-pact-v3.js';
import { codeOf, firstOfEachOutcome, keyResolver, selectEntries, type AccountKey } from './export-select.js';
import { providerStatesFor } from './export-states.js';
import { queryValues } from './query-values.js';

export type { AccountKey } from './export-select.js';

export interface ExportInput {
  consumer: string;
  provider: string;
  /** GET /__admin/requests, oldest first. */
  entries: readonly JournalEntry[];
  /** GET /__admin/accounts: each account's id and real key. */
  accounts: readonly AccountKey[];
  /**
   * Only this key's exchanges (default: every account's, and requests without a valid key). It also
   * names the key of proxied entries, which the journal holds masked only.
   */
  apiKey?: string;
  /** Recorded in the pact's metadata: the mock's version and where its journal came from. */
  version: string;
  source: string;
}

export interface ExportResult {
  pact: PactFile;
  /** Entries that count (before one per outcome is kept). */
  used: number;
  /** Reason → entries skipped for it. */
  skipped: Record<string, number>;
}

/** A refusal the user can act on, e.g. an --api-key that names no account. */
export class ExportError extends Error {}

export function buildPact(input: ExportInput): ExportResult {
  const { apiKey } = input;
  const keyOf = keyResolver(input.accounts, apiKey);
  if (apiKey !== undefined && !input.accounts.some((account) => account.apiKey === apiKey) && !input.entries.some((entry) => keyOf(entry) === apiKey)) {
    throw new ExportError(`no account has the API key '${apiKey}' and no journal entry carries it (GET /__admin/accounts lists the accounts)`);
  }
  const { kept, skipped } = selectEntries(input.entries, keyOf, apiKey);
  const interactions = firstOfEachOutcome(kept).map((entry) => interactionOf(entry, keyOf(entry), input.entries));
  const pact: PactFile = {
    consumer: { name: input.consumer },
    provider: { name: input.provider },
    interactions,
    metadata: { pactSpecification: { version: PACT_SPECIFICATION_VERSION }, 'shortlink-mock': { version: input.version, source: input.source } },
  };
  return { pact, used: kept.length, skipped };
}

function interactionOf(entry: JournalEntry, apiKey: string | undefined, history: readonly JournalEntry[]): PactInteraction {
  const code = codeOf(entry);
  const states = providerStatesFor(entry, apiKey, code, history);
  return {
    description: `${entry.operationId ?? entry.method} answered ${entry.status ?? ''}${code === null ? '' : ` ${code}`}`,
    ...(states.length > 0 ? { providerStates: states } : {}),
    request: requestOf(entry, apiKey),
    response: responseOf(entry),
  };
}

/** The request as sent. A key that named no account is sent as the journal masked it: it names none either. */
function requestOf(entry: JournalEntry, apiKey: string | undefined): PactRequest {
  const [path = '/', queryString] = entry.path.split(/\?(.*)/s);
  const query = queryValues(queryString ?? '');
  const key = apiKey ?? entry.apiKey;
  const hasBody = entry.requestBody !== null && entry.requestBody !== undefined;
  const headers = { ...(key === null ? {} : { 'x-api-key': key }), ...(hasBody ? { 'Content-Type': 'application/json' } : {}) };
  return {
    method: entry.method,
    path,
    ...(Object.keys(query).length > 0 ? { query } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(hasBody ? { body: entry.requestBody } : {}),
  };
}

function responseOf(entry: JournalEntry): PactResponse {
  const status = entry.status as number;
  const answer = entry.responseBody;
  if (answer === null || answer === undefined) return { status };
  const expected: ExpectedBody | undefined = isLink(answer) ? expectedLink(answer, entry.operationId === 'createLink') : isErrorObject(answer) ? expectedError(answer) : undefined;
  return {
    status,
    headers: { 'Content-Type': 'application/json' },
    body: expected?.body ?? answer,
    ...(expected && Object.keys(expected.rules).length > 0 ? { matchingRules: { body: expected.rules } } : {}),
  };
}
