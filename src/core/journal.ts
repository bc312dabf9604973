// The request journal: the last N requests, newest last, in a ring buffer so memory stays flat
// however long the mock runs. Bodies are capped and API keys masked before they are stored.
// This is the in-memory JournalStore (src/core/journal-types.ts); the Redis one shares the
// entry shape and the filters below.
import { EventEmitter } from 'node:events';
import type { JournalEntry, JournalEvents, JournalFilter, JournalStore, NewJournalEntry } from './journal-types.js';

export type { Verdict, Violation, UpstreamOutcome, JournalEntry, AnswerVariety, NewJournalEntry, JournalFilter } from './journal-types.js';

export const DEFAULT_JOURNAL_SIZE = 1000;
const MAX_BODY_CHARS = 4096;

/** The most client headers one entry keeps (evolve --consumer-by header:NAME), and the most characters of each value. */
export const MAX_RECORDED_HEADERS = 8;
export const MAX_HEADER_VALUE_CHARS = 256;
/**
 * Headers that name a client and carry no credential: user-agent and the x-client-* family. Asked
 * of every header of every request: the regular expression runs only on names that start as
 * that family does, not on the ten or so other headers a client sends.
 */
const CLIENT_HEADER_FAMILY = 'x-client-';
const CLIENT_HEADER_SUFFIX = /^[a-z0-9-]+$/;
/** Whether the journal keeps a header of this (lower-case) name; also what evolve --consumer-by may name. */
export const isClientHeader = (name: string): boolean =>
  name === 'user-agent' || (name.startsWith(CLIENT_HEADER_FAMILY) && CLIENT_HEADER_SUFFIX.test(name.slice(CLIENT_HEADER_FAMILY.length)));

/**
 * The request's client headers (names as Node gives them, lower case), bounded; undefined when it
 * has none, so that a request without any carries no object.
 */
export function clientHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> | undefined {
  let kept: Record<string, string> | undefined;
  let count = 0;
  for (const name in headers) {
    if (count >= MAX_RECORDED_HEADERS) break;
    if (!isClientHeader(name)) continue;
    const value = headers[name];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    (kept ??= {})[name] = text.length > MAX_HEADER_VALUE_CHARS ? text.slice(0, MAX_HEADER_VALUE_CHARS) : text;
    count += 1;
  }
  return kept;
}

/** The key maskApiKey masked last, with its mask. */
let lastKey = { key: '', masked: '***' };

/** Never the full key: enough of it to tell keys apart in a list. */
export function maskApiKey(key: string): string {
  // Every request's journal entry masks its key, and a client sends the same key request after
  // request: the last one is kept (one entry, so nothing to bound), its mask made once.
  if (key === lastKey.key) return lastKey.masked;
  const shown = Math.min(4, Math.floor(key.length / 2));
  const masked = `${key.slice(0, shown)}${'*'.repeat(Math.max(3, key.length - shown))}`;
  lastKey = { key, masked };
  return masked;
}

/**
 * Large bodies are cut to a preview so one request cannot hold megabytes in the journal. When the
 * size as read is known and small, the body is kept as it is, without serialising it again. Never
 * throws: a body that cannot be serialised is kept as a note saying so (the parser bounds nesting,
 * but the journal must not depend on that to stay up).
 */
export function capBody(body: unknown, bytesRead?: number): unknown {
  if (body === undefined) return null;
  // First, as it is most requests' answer: a WeakSet lookup gives an object an identity hash.
  if (bytesRead !== undefined && bytesRead <= MAX_BODY_CHARS) return body;
  if (typeof body === 'object' && body !== null && capped.has(body)) return body;
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    return { truncated: true, unserialisable: (error as Error).message };
  }
  if (text === undefined || text.length <= MAX_BODY_CHARS) return body ?? null;
  return { truncated: true, chars: text.length, preview: previewOf(text) };
}

/**
 * The first MAX_BODY_CHARS of a text, as a string of its own. V8 makes `text.slice(…)` a view
 * into the whole text, so a 4 KiB preview kept in the journal would keep a 16 MiB text alive (a
 * thousand entries: gigabytes). Copying it through its bytes cuts that link.
 */
function previewOf(text: string): string {
  return Buffer.from(text.slice(0, MAX_BODY_CHARS), 'utf8').toString('utf8');
}

/**
 * A body read as text, capped as capBody caps a parsed one, without parsing it: a 16 MiB answer
 * would otherwise be parsed and serialised again only to keep its first 4 KiB.
 */
export function capText(text: string): unknown {
  if (text.length <= MAX_BODY_CHARS) return undefined;
  const preview = { truncated: true, chars: text.length, preview: previewOf(text) };
  capped.add(preview);
  return preview;
}

/** Previews capText made: capBody keeps them as they are rather than capping the preview again. */
const capped = new WeakSet<object>();

/**
 * A body judged in another thread (the proxy's large answers) comes back as a copy, no longer one
 * of capText's previews: when it has a preview's shape it is marked as one again.
 */
export function markCapped(body: unknown): unknown {
  const preview = body as { truncated?: unknown; chars?: unknown; preview?: unknown } | null;
  if (typeof preview === 'object' && preview !== null && preview.truncated === true && typeof preview.chars === 'number' && typeof preview.preview === 'string') capped.add(preview);
  return body;
}

/** Oldest first, as given; filters combine with AND; `limit` keeps the newest. */
export function filterEntries(entries: readonly JournalEntry[], filter: JournalFilter, accountIdOfKey: (key: string) => string | undefined): JournalEntry[] {
  const accountId = filter.account === undefined ? undefined : (accountIdOfKey(filter.account) ?? filter.account);
  const kept = entries.filter(
    (entry) =>
      (accountId === undefined || entry.accountId === accountId) &&
      (filter.operation === undefined || entry.operationId === filter.operation) &&
      (filter.status === undefined || entry.status === filter.status) &&
      (filter.scenario === undefined || entry.scenario === filter.scenario),
  );
  return filter.limit === undefined ? kept : kept.slice(-filter.limit);
}

/**
 * The entry with its number first, its fields in the order src/http/record-requests.ts makes them.
 * Not `{ seq, ...entry }`: a spread after another field copies field by field through a generic
 * path (CopyDataProperties, ~15 property definitions a request); this is one literal, then the
 * fields an entry may lack, only when present (JSON and equality as the spread's).
 */
function withSeq(seq: number, entry: NewJournalEntry): JournalEntry {
  const stored: JournalEntry = {
    seq,
    time: entry.time,
    method: entry.method,
    path: entry.path,
    operationId: entry.operationId,
    apiKey: entry.apiKey,
    accountId: entry.accountId,
    status: entry.status,
    durationMs: entry.durationMs,
    scenario: entry.scenario,
    fault: entry.fault,
    verdict: entry.verdict,
    requestBody: entry.requestBody,
    responseBody: entry.responseBody,
  };
  if (entry.variety !== undefined) stored.variety = entry.variety;
  if (entry.headers !== undefined) stored.headers = entry.headers;
  if (entry.violations !== undefined) stored.violations = entry.violations;
  if (entry.violationsNotKept !== undefined) stored.violationsNotKept = entry.violationsNotKept;
  if (entry.upstream !== undefined) stored.upstream = entry.upstream;
  if (entry.generated !== undefined) stored.generated = entry.generated;
  if (entry.generatedFields !== undefined) stored.generatedFields = entry.generatedFields;
  return stored;
}

/** The fields withSeq copies: a field added to JournalEntry and not copied there fails to compile here. */
type Copied = 'time' | 'method' | 'path' | 'operationId' | 'apiKey' | 'accountId' | 'status' | 'durationMs' | 'scenario' | 'fault' | 'verdict' | 'requestBody' | 'responseBody' | 'variety' | 'headers' | 'violations' | 'violationsNotKept' | 'upstream' | 'generated' | 'generatedFields';
export type EveryFieldCopied = Exclude<keyof NewJournalEntry, Copied> extends never ? true : never;
export const everyFieldCopied: EveryFieldCopied = true;

const noAccount = (): undefined => undefined;

export class Journal extends EventEmitter<JournalEvents> implements JournalStore {
  private readonly ring: (JournalEntry | undefined)[];
  private next = 0;
  private seq = 0;

  constructor(readonly size = DEFAULT_JOURNAL_SIZE) {
    super();
    // Every open event stream listens (src/admin/journal-stream.ts): their memory is bounded there, not by a count.
    this.setMaxListeners(0);
    this.ring = new Array<JournalEntry | undefined>(size);
  }

  add(entry: NewJournalEntry): JournalEntry {
    const stored = withSeq(++this.seq, entry);
    if (this.size > 0) {
      this.ring[this.next] = stored;
      this.next = (this.next + 1) % this.size;
    }
    this.emit('entry', stored);
    return stored;
  }

  /** Oldest first; filters combine with AND; `limit` keeps the newest. */
  list(filter: JournalFilter = {}, accountIdOfKey: (key: string) => string | undefined = noAccount): JournalEntry[] {
    const entries = [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)].filter((entry): entry is JournalEntry => entry !== undefined);
    return filterEntries(entries, filter, accountIdOfKey);
  }

  /** Entries are emitted as they are added, in this process: listeners hear every later one. */
  listening(): Promise<void> {
    return Promise.resolve();
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
  }
}
