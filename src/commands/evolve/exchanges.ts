// The recorded exchanges evolve judges, in one shape whatever they were read from (a running
// mock's journal, a saved journal file, pacts), each with the consumer it belongs to.
import type { JournalEntry } from '../../core/journal-types.js';
import type { PactFile } from '../../pact/pact-file.js';

export interface Exchange {
  consumer: string;
  method: string;
  /** As sent, query string included. */
  path: string;
  /** Lower-case names; a journal keeps only the (masked) x-api-key and the headers it records. */
  headers: Record<string, string>;
  /** undefined: no body was sent. */
  requestBody: unknown;
  status: number;
  /** undefined: the answer had no body. */
  responseBody: unknown;
  /** The scenario that shaped the answer (x-mock-scenario on replay). */
  scenario: string | null;
}

/** How the consumer of a journal entry is named: by its account (API key) or by a request header. */
export type ConsumerBy = { kind: 'key' } | { kind: 'header'; name: string };

/** Account ids to names (GET /__admin/accounts), when known. */
export type AccountNames = ReadonlyMap<string, string>;

/**
 * A journal entry's consumer: its header (--consumer-by), else its account's name, else its
 * account id (a saved journal without names: masked keys often share their first characters, ids
 * never), else its masked key (proxy mode: the upstream's accounts are unknown), else '(no key)'.
 */
export function consumerOf(entry: JournalEntry, by: ConsumerBy, names: AccountNames): string {
  if (by.kind === 'header') {
    // A saved journal is any JSON: a header that is not a string names no consumer.
    const value: unknown = entry.headers?.[by.name];
    return typeof value === 'string' ? value : `(no ${by.name})`;
  }
  if (entry.accountId !== null) return names.get(entry.accountId) ?? `account ${entry.accountId}`;
  return entry.apiKey === null ? '(no key)' : `key ${entry.apiKey}`;
}

/**
 * A journal entry as an exchange, or undefined when it cannot be judged: no status (a network
 * fault), a body the journal kept only as a preview, or the mock's refusal of its own controls.
 */
export function exchangeOfEntry(entry: JournalEntry, by: ConsumerBy, names: AccountNames): Exchange | undefined {
  if (entry.status === null || entry.verdict === 'mock-control' || isPreview(entry.requestBody) || isPreview(entry.responseBody)) return undefined;
  // Proxy mode: what the consumer got is the upstream's answer, which the journal keeps as the response.
  const headers: Record<string, string> = { ...(entry.headers ?? {}) };
  if (entry.apiKey !== null) headers['x-api-key'] = entry.apiKey;
  if (entry.requestBody !== null) headers['content-type'] ??= 'application/json';
  return {
    consumer: consumerOf(entry, by, names),
    method: entry.method.toUpperCase(),
    path: entry.path,
    headers,
    requestBody: entry.requestBody === null ? undefined : entry.requestBody,
    status: entry.status,
    responseBody: entry.responseBody === null ? undefined : entry.responseBody,
    scenario: entry.scenario,
  };
}

const isPreview = (body: unknown): boolean => typeof body === 'object' && body !== null && (body as { truncated?: unknown }).truncated === true;

/** A pact's HTTP interactions as exchanges of its consumer (a query is kept on the path). */
export function exchangesOfPact(pact: PactFile): Exchange[] {
  return pact.interactions.flatMap((interaction) => {
    if (interaction.kind !== 'http') return [];
    const { request, response } = interaction;
    return [
      {
        consumer: pact.consumer,
        method: request.method,
        path: `${request.path}${queryOf(request.query)}`,
        headers: request.headers,
        requestBody: request.body,
        status: response.status,
        responseBody: response.body,
        scenario: null,
      },
    ];
  });
}

function queryOf(query: string | Record<string, string[]> | undefined): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query === '' ? '' : `?${query}`;
  const params = new URLSearchParams();
  for (const [name, values] of Object.entries(query)) for (const value of values) params.append(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
