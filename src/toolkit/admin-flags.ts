// The flags by which a command names the running mock it reads through its admin API (coverage,
// drift, robustness --base-url): --base-url, --admin-token and --help with their environment twins,
// and the hint a refusal gives when nothing answers there. Below the commands (src/commands/) and
// the robustness runner (src/robustness/), so both take them from here. Called with the environment
// the CLI gives; reads nothing else of the process.
import { flagOrEnv, type Given } from '../core/flag-or-env.js';
import { parseFlags, type FlagValues } from '../core/parse-flags.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/** Said when nothing answers at the mock's address: how to point the command at the right one. */
export const NAME_THE_MOCK = 'is a mock running there? Give its address with --base-url URL or MOCK_BASE_URL';

/** A bad flag: exit 2 with the message. */
export class UsageError extends Error {}

export type { Given };

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
  let values: FlagValues;
  try {
    const text = { type: 'string' } as const;
    const options = Object.fromEntries([...own, 'base-url', 'admin-token'].map((flag) => [flag, text]));
    // The mock CLI's parser and words (`--seed -1`: "needs a value … write --seed=VALUE"); no pointer
    // to --help of its own, as the command adds its own to every refusal.
    values = parseFlags(argv, { ...options, help: { type: 'boolean' } }, [], '');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values['help'] === true) return 'help';
  const read = (flag: string, envName?: string): Given | undefined => flagOrEnv(values[flag], flag, env, envName, (message) => new UsageError(message));
  const baseUrl = mockBaseUrl(read('base-url', 'MOCK_BASE_URL'));
  const token = read('admin-token', 'MOCK_ADMIN_TOKEN');
  return { target: { baseUrl, ...(token === undefined ? {} : { token }) }, read };
}

/**
 * The mock's address: the one given, else DEFAULT_BASE_URL. Refused unless http(s), naming where
 * it came from (`--base-url`, or `MOCK_BASE_URL` when the flag was not given), so a stale variable
 * is not blamed on a flag nobody typed.
 */
export function mockBaseUrl(given: Given | undefined): string {
  if (given === undefined) return DEFAULT_BASE_URL;
  if (!URL.canParse(given.value) || !/^https?:$/.test(new URL(given.value).protocol)) {
    throw new UsageError(`${given.from} must be an http(s) URL such as ${DEFAULT_BASE_URL}, got '${given.value}'`);
  }
  return given.value;
}
