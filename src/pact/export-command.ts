// `shortlink-mock pact export`: reads a running mock's journal and accounts through its admin API,
// builds the pact (export.ts) and writes it. Called by src/commands/pact.ts with the process's
// environment; reads nothing else of the process.
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { JournalEntry } from '../core/journal.js';
import { AdminApiError, AdminClient } from '../toolkit/admin-client.js';
import { DEFAULT_BASE_URL, mockBaseUrl, NAME_THE_MOCK, UsageError, type Given } from '../toolkit/admin-flags.js';
import { buildPact, ExportError, type AccountKey, type ExportResult } from './export.js';
import { makeDirectories } from '../contract/make-directories.js';

export interface PactExportIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
const consoleIo: PactExportIo = { out: (text) => console.log(text), err: (text) => console.error(text) };

const NAME = 'shortlink-mock pact export';
const DEFAULT_PROVIDER = 'shortlink-api';

export const pactExportHelpText = (): string => `Usage: ${NAME} --consumer NAME [--provider NAME] [--api-key KEY] [--base-url URL]
         [--admin-token TOKEN] [--out FILE]

Writes a Pact file (specification V3) from a running mock's journal: one interaction per distinct
outcome your client caused (operation × status × error code, the first one seen), with the request
as sent, type and pattern matchers for generated values (ids, dates, slugs, shortUrl, error
descriptions), and provider states the mock sets up again (POST /__admin/provider-states). Counted:
entries of createLink, updateLink and deleteLink that were answered, not shaped by a scenario, with
the verdict ok or invalid-request and no violation seen by the proxy. The journal keeps the last
--journal-size requests (default 1000) of the mock.

Exit code 0: written; 1: the mock cannot be reached or refused, nothing to export, or the file
cannot be written; 2: a bad flag.

Options:
  --consumer NAME        the consumer's name in the pact (required)
  --provider NAME        the provider's name (default ${DEFAULT_PROVIDER})
  --api-key KEY          only this key's exchanges (default: every account's, and requests answered
                         401 for a missing or unknown key); in proxy mode (--proxy) the journal holds
                         keys masked only, and this names the key a client sent
  --base-url URL         the running mock (default ${DEFAULT_BASE_URL}) [env MOCK_BASE_URL]
  --admin-token TOKEN    the token the mock was started with, if any [env MOCK_ADMIN_TOKEN]
  --out FILE             where to write (default pacts/<consumer>-<provider>.json); directories are made
  --help                 print this help and exit

Flags win over environment variables.`;

interface Options {
  consumer: string;
  provider: string;
  apiKey?: string;
  baseUrl: string;
  adminToken?: string;
  out: string;
}

/** A name as a file name: anything but letters, digits, dot, dash and underscore becomes '_'. */
const fileSafe = (name: string): string => name.replace(/[^A-Za-z0-9._-]/g, '_');

/** --out's default, relative to the working directory, as Pact tools name their files. */
export const defaultPactFile = (consumer: string, provider: string): string => `pacts/${fileSafe(consumer)}-${fileSafe(provider)}.json`;

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options | 'help' {
  const text = { type: 'string' } as const;
  let values;
  try {
    values = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: { consumer: text, provider: text, 'api-key': text, 'base-url': text, 'admin-token': text, out: text, help: { type: 'boolean' } } }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  if (values.help === true) return 'help';
  const given = (value: string | undefined, what: string): string | undefined => {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${what} must not be empty`);
    return value?.trim();
  };
  const consumer = given(values.consumer, '--consumer');
  if (consumer === undefined) throw new UsageError('--consumer NAME is required: the name of the client the pact is for');
  const provider = given(values.provider, '--provider') ?? DEFAULT_PROVIDER;
  const named = (value: string | undefined, from: string): Given | undefined => {
    const text = given(value, from);
    return text === undefined ? undefined : { value: text, from };
  };
  const baseUrl = mockBaseUrl(named(values['base-url'], '--base-url') ?? named(env['MOCK_BASE_URL'], 'MOCK_BASE_URL'));
  const apiKey = given(values['api-key'], '--api-key');
  const adminToken = given(values['admin-token'], '--admin-token') ?? given(env['MOCK_ADMIN_TOKEN'], 'MOCK_ADMIN_TOKEN');
  const out = given(values.out, '--out') ?? defaultPactFile(consumer, provider);
  return { consumer, provider, baseUrl, out, ...(apiKey === undefined ? {} : { apiKey }), ...(adminToken === undefined ? {} : { adminToken }) };
}

interface Fetched {
  version: string;
  size: number;
  entries: JournalEntry[];
  accounts: AccountKey[];
}

async function fetchFromMock(options: Options): Promise<Fetched> {
  const client = new AdminClient(options.baseUrl, { adminToken: options.adminToken });
  const [health, journal, listed] = await Promise.all([
    client.call<{ version: string }>('GET', '/health'),
    client.call<{ size: number; entries: JournalEntry[] }>('GET', '/requests'),
    client.call<{ accounts: AccountKey[] }>('GET', '/accounts'),
  ]);
  return { version: health.version, size: journal.size, entries: journal.entries, accounts: listed.accounts };
}

export async function runPactExport(argv: readonly string[], env: NodeJS.ProcessEnv, io: PactExportIo = consoleIo): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${NAME}: ${error.message} (see ${NAME} --help)`);
    return 2;
  }
  if (options === 'help') return (io.out(pactExportHelpText()), 0);
  try {
    const fetched = await fetchFromMock(options);
    const result = buildPact({ ...options, entries: fetched.entries, accounts: fetched.accounts, version: fetched.version, source: `${options.baseUrl.replace(/\/+$/, '')}/__admin/requests` });
    if (result.pact.interactions.length === 0) return (io.err(`${NAME}: nothing to export: ${account(options)}${summary(fetched, result)}`), 1);
    // A file --out names that cannot be written is a bad flag (exit 2, naming it), as contract's --junit is.
    const unwritable = writePactFile(options.out, result.pact);
    if (unwritable !== undefined) return (io.err(`${NAME}: cannot write --out ${options.out}: ${unwritable}`), 2);
    io.out(`wrote ${options.out} (Pact V3): ${result.pact.interactions.length} interaction(s) for ${options.consumer} → ${options.provider}; ${summary(fetched, result)}`);
    return 0;
  } catch (error) {
    io.err(`${NAME}: ${explain(error, options)}`);
    return 1;
  }
}

const account = (options: Options): string => (options.apiKey === undefined ? '' : `(--api-key ${options.apiKey}) `);

/** Which entries counted, which were left out and why, and whether the journal may have lost older ones. */
function summary(fetched: Fetched, result: ExportResult): string {
  const lines = [`${result.used} of the journal's ${fetched.entries.length} entries count`];
  for (const [reason, count] of Object.entries(result.skipped)) lines.push(`  skipped ${count}: ${reason}`);
  if (fetched.size > 0 && fetched.entries.length >= fetched.size) lines.push(`  the journal is full (${fetched.size} entries): older requests are gone; start the mock with a larger --journal-size to keep them`);
  return lines.join('\n');
}

function explain(error: unknown, options: Options): string {
  if (error instanceof ExportError) return error.message;
  if (error instanceof AdminApiError) {
    if (error.status === 0) return `cannot reach the mock at ${options.baseUrl}: ${error.errorDescription}: ${NAME_THE_MOCK}`;
    if (error.status === 401) return `the mock at ${options.baseUrl} needs its admin token: pass --admin-token TOKEN or set MOCK_ADMIN_TOKEN (${error.errorDescription})`;
    // An answer too large, of another shape, or a redirect: the client's sentence names the URL.
    if (error.status < 400) return error.errorDescription;
    return `the mock at ${options.baseUrl} refused ${error.call}: ${error.status} ${error.errorDescription}`;
  }
  return String((error as Error)?.stack ?? error);
}

/** Writes the pact, making its directory; the reason it could not, or undefined. */
function writePactFile(out: string, pact: unknown): string | undefined {
  try {
    makeDirectories(dirname(out));
    writeFileSync(out, `${JSON.stringify(pact, null, 2)}\n`);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
