// Which journal entries a pact is made of: exchanges of the API's operations that the client
// caused and that a provider can be asked to repeat. Every other entry is skipped with a reason,
// counted, so the command can say what it left out and why. Pure.
import { maskApiKey, type JournalEntry } from '../core/journal.js';

/** An account as GET /__admin/accounts shows it: the id the journal names, and its real key. */
export interface AccountKey {
  id: string;
  apiKey: string;
}

export interface Selection {
  kept: JournalEntry[];
  /** Reason → how many entries were skipped for it. */
  skipped: Record<string, number>;
}

/** The real API key of an entry: its account's, or --api-key's when the journal's masked key is that key's mask. */
export type KeyOf = (entry: JournalEntry) => string | undefined;

/**
 * Mock mode records the account of each request, so its key is known. A validating proxy (--proxy)
 * authenticates nothing itself: its entries carry only the masked key, which --api-key can name.
 */
export function keyResolver(accounts: readonly AccountKey[], apiKey: string | undefined): KeyOf {
  const byId = new Map(accounts.map((account) => [account.id, account.apiKey]));
  const mask = apiKey === undefined ? undefined : maskApiKey(apiKey);
  return (entry) => (entry.accountId !== null ? byId.get(entry.accountId) : mask !== undefined && entry.apiKey === mask ? apiKey : undefined);
}

/** Why an entry is not part of the pact, or undefined when it is. */
function skipReason(entry: JournalEntry, keyOf: KeyOf, onlyKey: string | undefined): string | undefined {
  if (entry.operationId === null) return 'not an API operation (unknown path or method)';
  if (entry.status === null) return 'no answer (a network fault)';
  // A scenario is the mock's own control, and so is its refusal of one: a provider cannot be asked to answer that way.
  if (entry.scenario !== null) return 'shaped by a scenario';
  if (entry.verdict === 'mock-control') return "a refusal of the mock's own controls (x-mock-scenario, Prefer)";
  if (entry.verdict !== 'ok' && entry.verdict !== 'invalid-request') return `verdict ${entry.verdict}`;
  if (entry.violations !== undefined && entry.violations.length > 0) return 'contract violations seen by the proxy';
  const key = keyOf(entry);
  if (entry.accountId !== null && key === undefined) return 'its account is gone (a reset since?)';
  if (onlyKey !== undefined && key !== onlyKey) return 'another API key (--api-key)';
  // A masked key can be sent again only when answered 401: it names no account there either.
  if (key === undefined && entry.apiKey !== null && entry.status !== 401) return 'a masked API key the mock has no account for (a proxied request? name it with --api-key)';
  if (isPreview(entry.requestBody) || isPreview(entry.responseBody)) return 'a body cut to a preview in the journal (over 4 KiB)';
  // A refusal of a body the journal could not keep (not JSON, or past the API's bounds: 1,001
  // fields, 65 levels, 1 MiB): sent again without it, the provider would refuse something else.
  if (entry.verdict === 'invalid-request' && entry.requestBody === null && BODY_METHODS.has(entry.method)) return 'a refused request body the journal did not keep (not JSON, or past the API\'s bounds)';
  return undefined;
}

/** The methods whose requests carry the body the operation refuses or takes. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The journal's stand-in for a body over 4 KiB (src/core/journal.ts capBody). */
const isPreview = (body: unknown): boolean => typeof body === 'object' && body !== null && (body as { truncated?: unknown }).truncated === true;

export function selectEntries(entries: readonly JournalEntry[], keyOf: KeyOf, onlyKey?: string): Selection {
  const kept: JournalEntry[] = [];
  const skipped: Record<string, number> = {};
  for (const entry of entries) {
    const reason = skipReason(entry, keyOf, onlyKey);
    if (reason === undefined) kept.push(entry);
    else skipped[reason] = (skipped[reason] ?? 0) + 1;
  }
  return { kept, skipped };
}

/** The error `code` of an answer, or null: with the operation and status, it names one outcome. */
export function codeOf(entry: JournalEntry): string | null {
  const code = (entry.responseBody as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/** One entry per distinct outcome (operation × status × code): the first seen, in the journal's order. */
export function firstOfEachOutcome(entries: readonly JournalEntry[]): JournalEntry[] {
  const seen = new Map<string, JournalEntry>();
  for (const entry of entries) {
    const key = `${entry.operationId} ${entry.status} ${codeOf(entry) ?? ''}`;
    if (!seen.has(key)) seen.set(key, entry);
  }
  return [...seen.values()];
}
