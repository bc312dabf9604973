// `shortlink-mock coverage`: the error-path coverage of a running mock as a table: which documented
// outcomes each key's client has met, and which it has never met. Called by src/cli.ts with
// process.env; reads nothing else of the process.
import { parseArgs } from 'node:util';
import { ADMIN_TOKEN_HEADER } from '../admin/admin-token.js';
import { formatCoverage, type CoverageReport } from './coverage-table.js';

export { formatCoverage } from './coverage-table.js';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;
const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';
const TIMEOUT_MS = 10_000;

const USAGE = `Usage: shortlink-mock coverage [--base-url URL] [--account API_KEY] [--admin-token TOKEN]

Prints which documented outcomes (operation × status × error code) each API key's client has
been answered with by a running mock, and which it has never met. Exit code 0: printed; 1: the
mock cannot be reached or refused the request; 2: a bad flag.

Options:
  --base-url URL         the running mock (default ${DEFAULT_BASE_URL}) [env MOCK_BASE_URL]
  --account API_KEY      only this API key (default: every key that sent a request)
  --admin-token TOKEN    the token the mock was started with, if any (default none) [env MOCK_ADMIN_TOKEN, as for the mock]
  --help                 print this help and exit

Flags win over environment variables.`;

export interface CoverageIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
const consoleIo: CoverageIo = { out: (text) => console.log(text), err: (text) => console.error(text) };

class UsageError extends Error {}

export const coverageHelpText = (): string => USAGE;

interface Options {
  baseUrl: string;
  account?: string;
  /** The token and where it came from, for the message when the mock refuses it. */
  token?: { value: string; from: string };
}

function parseOptions(argv: readonly string[], env: Record<string, string | undefined>): Options | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    const text = { type: 'string' } as const;
    values = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: { 'base-url': text, account: text, 'admin-token': text, help: { type: 'boolean' } } }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  if (values['help'] === true) return 'help';
  // The flag, else its environment twin; `from` names whichever it was, for messages.
  const read = (flag: string, envName?: string): { value: string; from: string } | undefined => {
    const flagValue = values[flag];
    const [value, from] = typeof flagValue === 'string' ? [flagValue, `--${flag}`] : [envName === undefined ? undefined : env[envName], envName];
    if (value === undefined || from === undefined) return undefined;
    if (value.trim() === '') throw new UsageError(`${from} must not be empty`);
    return { value: value.trim(), from };
  };
  const baseUrl = read('base-url', 'MOCK_BASE_URL')?.value ?? DEFAULT_BASE_URL;
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new UsageError(`--base-url must be an http(s) URL such as ${DEFAULT_BASE_URL}, got '${baseUrl}'`);
  }
  const account = read('account')?.value;
  const token = read('admin-token', 'MOCK_ADMIN_TOKEN');
  return { baseUrl, ...(account === undefined ? {} : { account }), ...(token === undefined ? {} : { token }) };
}

export async function runCoverageCommand(argv: readonly string[], env: Record<string, string | undefined>, io: CoverageIo = consoleIo): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`shortlink-mock coverage: ${error.message} (see shortlink-mock coverage --help)`);
    return EXIT_USAGE;
  }
  if (options === 'help') {
    io.out(coverageHelpText());
    return EXIT_OK;
  }
  const url = new URL('/__admin/coverage', options.baseUrl);
  if (options.account !== undefined) url.searchParams.set('account', options.account);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { headers: options.token ? { [ADMIN_TOKEN_HEADER]: options.token.value } : {}, signal: AbortSignal.timeout(TIMEOUT_MS) });
    text = await response.text();
  } catch (error) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, a DNS failure…) is its cause.
    const { message, cause } = error as Error & { cause?: { message?: string } };
    io.err(`shortlink-mock coverage: cannot reach ${url.origin}: ${cause?.message ?? message}`);
    return EXIT_FAILED;
  }
  const report = response.ok ? coverageOf(text) : undefined;
  if (!report) {
    io.err(`shortlink-mock coverage: ${explainRefusal(url, response.status, text, options.token?.from)}`);
    return EXIT_FAILED;
  }
  io.out(formatCoverage(report, options.account));
  return EXIT_OK;
}

function coverageOf(text: string): CoverageReport | undefined {
  try {
    const body = JSON.parse(text) as Partial<CoverageReport> | null;
    return Array.isArray(body?.documented) && Array.isArray(body?.accounts) ? (body as CoverageReport) : undefined;
  } catch {
    return undefined;
  }
}

/** One sentence a person can act on, instead of the raw answer. */
function explainRefusal(url: URL, status: number, text: string, tokenFrom: string | undefined): string {
  if (status === 401) {
    return tokenFrom === undefined
      ? `the mock at ${url.origin} needs its admin token (it was started with --admin-token): pass --admin-token TOKEN or set MOCK_ADMIN_TOKEN`
      : `the mock at ${url.origin} refused the admin token from ${tokenFrom}: it is not the token the mock was started with`;
  }
  let description: string | undefined;
  try {
    description = (JSON.parse(text) as { errorDescription?: unknown }).errorDescription as string | undefined;
  } catch {
    // Not JSON: not a mock's answer; say so below.
  }
  if (status >= 200 && status < 300) return `${url.href} did not answer with a coverage report: is ${url.origin} a shortlink-mock?`;
  return `${url.href} answered ${status}${typeof description === 'string' ? `: ${description}` : ' (not a shortlink-mock answer)'}`;
}
