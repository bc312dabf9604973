// Where the recorded exchanges come from: a running mock's journal (--base-url, through the admin
// client, which bounds every answer), a saved journal file (--journal FILE: the JSON of
// GET /__admin/requests), or pacts (--pact FILE…). At most MAX_EXCHANGES are read; the rest are
// counted as skipped. An input that is not what it claims is an InputError (exit 2, one line).
import { isUtf8 } from 'node:buffer';
import type { JournalEntry } from '../../core/journal-types.js';
import { nestsDeeperThan } from '../../http/json-depth.js';
import { PactFileError, readPactFile } from '../../pact/pact-file.js';
import { readPactJson } from '../../pact/pact-input.js';
import { AdminApiError, AdminClient } from '../../toolkit/admin-client.js';
import { answerRule, MAX_ADMIN_ANSWER_BYTES } from '../../toolkit/admin-answers.js';
import { NAME_THE_MOCK } from '../../toolkit/admin-flags.js';
import { readFileWithin } from './bounded-read.js';
import { exchangeOfEntry, exchangesOfPact, type AccountNames, type ConsumerBy, type Exchange } from './exchanges.js';

/** The most exchanges judged in one run; the rest are skipped and counted. */
export const MAX_EXCHANGES = 100_000;
/**
 * The largest journal file read: room for MAX_EXCHANGES entries of ~670 bytes (a real entry is 0.5-2
 * KiB), twice what the admin client reads of a running mock's journal (MAX_ADMIN_ANSWER_BYTES), and
 * no more: JSON.parse of hostile `{},{},…` costs ~18 bytes of heap per byte (STYLE.md item 19).
 */
export const MAX_JOURNAL_FILE_BYTES = 2 * MAX_ADMIN_ANSWER_BYTES;
/** A journal file nests a body (at most 64 levels, D28) inside an entry: twice that is room. */
const MAX_JOURNAL_DEPTH = 128;

export class InputError extends Error {}

export type Source = { kind: 'base-url'; url: string; adminToken?: string } | { kind: 'journal'; file: string } | { kind: 'pact'; files: string[] };

export interface Recorded {
  exchanges: Exchange[];
  /** Past MAX_EXCHANGES: not read. */
  skipped: number;
  /** Read but not judgeable: network faults, bodies kept only as previews, the mock's own refusals. */
  unjudged: number;
  /** Where they came from, for the report's first line. */
  from: string;
}

export async function readRecorded(source: Source, by: ConsumerBy): Promise<Recorded> {
  if (source.kind === 'pact') return fromPacts(source.files);
  const { entries, names } = source.kind === 'journal' ? readJournalFile(source.file) : await fetchJournal(source.url, source.adminToken);
  const kept = entries.slice(0, MAX_EXCHANGES);
  const exchanges = kept.flatMap((entry) => exchangeOfEntry(entry, by, names) ?? []);
  return { exchanges, skipped: entries.length - kept.length, unjudged: kept.length - exchanges.length, from: source.kind === 'journal' ? `journal file ${source.file}` : `the journal of ${source.url}` };
}

async function fetchJournal(url: string, adminToken: string | undefined): Promise<{ entries: JournalEntry[]; names: AccountNames }> {
  const client = new AdminClient(url, { adminToken });
  try {
    const journal = await client.call<{ entries: JournalEntry[] }>('GET', '/requests', undefined, { limit: MAX_EXCHANGES });
    const { accounts } = await client.call<{ accounts: Array<{ id?: unknown; name?: unknown }> }>('GET', '/accounts');
    return { entries: journal.entries, names: namesOf(accounts) };
  } catch (error) {
    if (error instanceof AdminApiError) throw new InputError(`cannot read the journal of ${url}: ${error.message}${error.status === 0 ? `; ${NAME_THE_MOCK}` : ''}`);
    throw error;
  }
}

/**
 * A saved journal: `{"entries": [...]}` as GET /__admin/requests answers. The journal masks keys, so
 * consumers are named by masked key unless the file also holds `"accounts"` (the list of GET
 * /__admin/accounts), whose names then name them as with --base-url.
 */
function readJournalFile(file: string): { entries: JournalEntry[]; names: AccountNames } {
  let bytes: Buffer;
  try {
    bytes = readFileWithin(file, MAX_JOURNAL_FILE_BYTES, 'a journal');
  } catch (error) {
    throw new InputError((error as Error).message);
  }
  if (!isUtf8(bytes)) throw new InputError(`${file} is not UTF-8 text: a journal file is JSON`);
  if (nestsDeeperThan(bytes, MAX_JOURNAL_DEPTH)) throw new InputError(`${file} is nested more than ${MAX_JOURNAL_DEPTH} levels deep: not a journal`);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new InputError(`${file} is not JSON: ${(error as Error).message}`);
  }
  if (!answerRule('GET', '/requests').fits(json)) throw new InputError(`${file} is not a journal: expected the JSON of GET /__admin/requests, {"entries": [...]}`);
  const accounts = (json as { accounts?: unknown }).accounts;
  return { entries: (json as { entries: JournalEntry[] }).entries, names: namesOf(Array.isArray(accounts) ? accounts : []) };
}

function namesOf(accounts: unknown[]): AccountNames {
  const names = new Map<string, string>();
  for (const account of accounts) {
    const { id, name } = (account ?? {}) as { id?: unknown; name?: unknown };
    if (typeof id === 'string' && typeof name === 'string' && name.trim() !== '') names.set(id, name);
  }
  return names;
}

function fromPacts(files: string[]): Recorded {
  const exchanges: Exchange[] = [];
  let skipped = 0;
  let unjudged = 0;
  for (const file of files) {
    const read = readPactJson(file);
    if ('problem' in read) throw new InputError(read.problem);
    let found: Exchange[];
    try {
      const pact = readPactFile(read.json);
      found = exchangesOfPact(pact);
      unjudged += pact.interactions.length - found.length;
    } catch (error) {
      if (error instanceof PactFileError) throw new InputError(`${file} is not a pact: ${error.message}`);
      throw error;
    }
    const room = Math.max(0, MAX_EXCHANGES - exchanges.length);
    exchanges.push(...found.slice(0, room));
    skipped += Math.max(0, found.length - room);
  }
  return { exchanges, skipped, unjudged, from: files.length === 1 ? `pact ${files[0]}` : `${files.length} pacts` };
}
