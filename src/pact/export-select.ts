// Which journal entries a pact is made of: exchanges of the API's operations that the client
// caused and that a provider can be asked to repeat. Every other entry is skipped with a reason,
// counted, so the command can say what it left out and why. Pure.
import type { JournalEntry } from '../core/journal.js';

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

/** Why an entry is not part of the pact, or undefined when it is. */
function skipReason(entry: JournalEntry, accountIds: ReadonlySet<string>, onlyAccountId: string | undefined): string | undefined {
  if (entry.operationId === null) return 'not an API operation (unknown path or method)';
  if (entry.status === null) return 'no answer (a network fault)';
  // A scenario is the mock's own control: a provider cannot be asked to answer that way.
  if (entry.scenario !== null) return 'shaped by a scenario';
  if (entry.verdict !== 'ok' && entry.verdict !== 'invalid-request') return `verdict ${entry.verdict}`;
  if (entry.violations !== undefined && entry.violations.length > 0) return 'contract violations seen by the proxy';
  if (onlyAccountId !== undefined && entry.accountId !== onlyAccountId) return 'another API key (--api-key)';
  if (entry.accountId !== null && !accountIds.has(entry.accountId)) return 'its account is gone (a reset since?)';
  if (isPreview(entry.requestBody) || isPreview(entry.responseBody)) return 'a body cut to a preview in the journal (over 4 KiB)';
  return undefined;
}

/** The journal's stand-in for a body over 4 KiB (src/core/journal.ts capBody). */
const isPreview = (body: unknown): boolean => typeof body === 'object' && body !== null && (body as { truncated?: unknown }).truncated === true;

export function selectEntries(entries: readonly JournalEntry[], accounts: readonly AccountKey[], onlyAccountId?: string): Selection {
  const accountIds = new Set(accounts.map((account) => account.id));
  const kept: JournalEntry[] = [];
  const skipped: Record<string, number> = {};
  for (const entry of entries) {
    const reason = skipReason(entry, accountIds, onlyAccountId);
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
