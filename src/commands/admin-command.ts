// What the commands that read a running mock's admin API share (coverage, drift): the flags
// --base-url, --admin-token and --help with their environment twins, exit codes, and one GET whose
// failures become one sentence a person can act on. Called with the environment the CLI gives;
// reads nothing else of the process.
import { parseArgs } from 'node:util';
import { ADMIN_TOKEN_HEADER } from '../admin/admin-token.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';
const TIMEOUT_MS = 10_000;

export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
export const consoleIo: CommandIo = { out: (text) => console.log(text), err: (text) => console.error(text) };

/** A bad flag: exit 2 with the message. */
export class UsageError extends Error {}

/** A value and where it came from (the flag or its environment twin), for messages. */
export interface Given {
  value: string;
  from: string;
}

export interface AdminTarget {
  baseUrl: string;
  token?: Given;
}

export interface ParsedFlags {
  target: AdminTarget;
  /** The flag, else its environment twin; undefined when neither is given. */
  read: (flag: string, envName?: string) => Given | undefined;
}

/** --base-url, --admin-token, --help and the command's own string flags (`own`). */
export function parseAdminFlags(argv: readonly string[], env: Record<string, string | undefined>, own: readonly string[]): ParsedFlags | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    const text = { type: 'string' } as const;
    const options = Object.fromEntries([...own, 'base-url', 'admin-token'].map((flag) => [flag, text]));
    values = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: { ...options, help: { type: 'boolean' } } }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  if (values['help'] === true) return 'help';
  const read = (flag: string, envName?: string): Given | undefined => {
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
  const token = read('admin-token', 'MOCK_ADMIN_TOKEN');
  return { target: { baseUrl, ...(token === undefined ? {} : { token }) }, read };
}

/** Parses the flags, answers --help and bad flags (exit 2), else runs the command. */
export async function runAdminCommand<O>(
  name: string,
  io: CommandIo,
  usage: string,
  parse: () => O | 'help',
  run: (options: O) => Promise<number>,
): Promise<number> {
  let options: O | 'help';
  try {
    options = parse();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`shortlink-mock ${name}: ${error.message} (see shortlink-mock ${name} --help)`);
    return EXIT_USAGE;
  }
  if (options === 'help') {
    io.out(usage);
    return EXIT_OK;
  }
  return run(options);
}

export interface AdminGet<T> {
  target: AdminTarget;
  path: string;
  query?: Record<string, string>;
  /** The body as T, or undefined when it is not what the route answers. */
  parse: (body: unknown) => T | undefined;
  /** What the route answers, for the message when it answered something else ('a coverage report'). */
  what: string;
}

/** GETs the admin route: its body, or why not in one sentence. */
export async function getAdmin<T>(get: AdminGet<T>): Promise<{ body: T } | { error: string }> {
  const url = new URL(get.path, get.target.baseUrl);
  for (const [name, value] of Object.entries(get.query ?? {})) url.searchParams.set(name, value);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { headers: get.target.token ? { [ADMIN_TOKEN_HEADER]: get.target.token.value } : {}, signal: AbortSignal.timeout(TIMEOUT_MS) });
    text = await response.text();
  } catch (error) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, a DNS failure…) is its cause.
    const { message, cause } = error as Error & { cause?: { message?: string } };
    return { error: `cannot reach ${url.origin}: ${cause?.message ?? message}` };
  }
  const body = response.ok ? parseJson(text, get.parse) : undefined;
  if (body === undefined) return { error: explainRefusal(url, response.status, text, get.target.token?.from, get.what) };
  return { body };
}

function parseJson<T>(text: string, parse: (body: unknown) => T | undefined): T | undefined {
  try {
    return parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** One sentence a person can act on, instead of the raw answer. */
function explainRefusal(url: URL, status: number, text: string, tokenFrom: string | undefined, what: string): string {
  if (status === 401) {
    return tokenFrom === undefined
      ? `the mock at ${url.origin} needs its admin token (it was started with --admin-token): pass --admin-token TOKEN or set MOCK_ADMIN_TOKEN`
      : `the mock at ${url.origin} refused the admin token from ${tokenFrom}: it is not the token the mock was started with`;
  }
  let description: unknown;
  try {
    description = (JSON.parse(text) as { errorDescription?: unknown }).errorDescription;
  } catch {
    // Not JSON: not a mock's answer; say so below.
  }
  if (status >= 200 && status < 300) return `${url.href} did not answer with ${what}: is ${url.origin} a shortlink-mock?`;
  return `${url.href} answered ${status}${typeof description === 'string' ? `: ${description}` : ' (not a shortlink-mock answer)'}`;
}
