// What the commands that read a running mock's admin API share (coverage, drift, robustness): exit
// codes, --help and bad flags (their flags are parsed in src/toolkit/admin-flags.ts, which the
// robustness runner shares), and one GET whose failures become one sentence a person can act on.
import { AdminApiError, AdminClient } from '../toolkit/admin-client.js';
import { NAME_THE_MOCK, UsageError, type AdminTarget } from '../toolkit/admin-flags.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
export const consoleIo: CommandIo = { out: (text) => console.log(text), err: (text) => console.error(text) };

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

export interface AdminGet {
  target: AdminTarget;
  /** Under /__admin, e.g. '/coverage'. */
  path: string;
  query?: Record<string, string>;
}

/**
 * GETs the admin route through the admin client (each route's answer bounded and checked for its
 * shape, no redirect followed): its body, or why not in one sentence.
 */
export async function getAdmin<T>(get: AdminGet): Promise<{ body: T } | { error: string }> {
  const client = new AdminClient(get.target.baseUrl, { adminToken: get.target.token?.value });
  try {
    return { body: await client.call<T>('GET', get.path, undefined, get.query ?? {}) };
  } catch (error) {
    if (!(error instanceof AdminApiError)) throw error;
    return { error: explainRefusal(error, client.baseUrl, get.target.token?.from) };
  }
}

/** One sentence a person can act on, naming the URL, instead of the raw answer. */
export function explainRefusal(error: AdminApiError, baseUrl: string, tokenFrom: string | undefined): string {
  // The sentence names the mock already: not the client's `no answer from URL: ` before the reason.
  if (error.status === 0) return `cannot reach ${baseUrl}: ${error.errorDescription.replace(/^no answer from \S+: /, '')}: ${NAME_THE_MOCK}`;
  if (error.status === 401) {
    return tokenFrom === undefined
      ? `the mock at ${baseUrl} needs its admin token (it was started with --admin-token): pass --admin-token TOKEN or set MOCK_ADMIN_TOKEN`
      : `the mock at ${baseUrl} refused the admin token from ${tokenFrom}: it is not the token the mock was started with`;
  }
  // An answer too large, of another shape, or a redirect: the client's sentence names the URL.
  if (error.status < 400) return error.errorDescription;
  const [method = 'GET', path = ''] = error.call.split(' ');
  return `${method} ${baseUrl}${path} answered ${error.status}: ${error.errorDescription}`;
}
