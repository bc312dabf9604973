// The flags of `shortlink-mock contract`, each with a CONTRACT_* environment twin (flags win),
// checked once into the suite's options. Every refusal names what the user set: the flag, or the
// variable when the flag was not given. Pure: runContractCommand (command.ts) passes in argv and the
// environment the CLI gives.
import { parseFlags, type FlagValues } from '../core/parse-flags.js';
import { DEFAULT_TIMEOUT_MS } from './client.js';
import { LIMITED_DESTINATION } from './cases-limit.js';
import { DEFAULT_FUZZ_RUNS } from './fuzz.js';
import { readUserContract } from './user-contract.js';
import { DEFAULT_DOMAIN, type ContractOptions } from './runner.js';
import { flagOrEnv, type Given } from '../core/flag-or-env.js';

export type Env = Record<string, string | undefined>;

export const FLAGS = [
  { flag: 'base-url', env: 'CONTRACT_BASE_URL', value: 'URL', description: 'the server to check, e.g. http://127.0.0.1:4010 (required)' },
  { flag: 'api-key', env: 'CONTRACT_API_KEY', value: 'KEY', description: 'API key of the account the suite works in (required)' },
  { flag: 'other-api-key', env: 'CONTRACT_OTHER_API_KEY', value: 'KEY', description: 'API key of a second account, for isolation checks (default none: not checked)' },
  { flag: 'other-account-domain', env: 'CONTRACT_OTHER_ACCOUNT_DOMAIN', value: 'NAME', description: "a custom domain of the second account, for \"no create on another account's domain\" (default none: not checked)" },
  { flag: 'domain', env: 'CONTRACT_DOMAIN', value: 'NAME', description: `a domain the account can use (default ${DEFAULT_DOMAIN})` },
  { flag: 'other-domain', env: 'CONTRACT_OTHER_DOMAIN', value: 'NAME', description: 'a second domain of the account, for "same slug in another domain" (default none: not checked)' },
  { flag: 'limited-api-key', env: 'CONTRACT_LIMITED_API_KEY', value: 'KEY', description: 'API key of an account already at its link limit, for LINK_LIMIT_REACHED (default none: not checked)' },
  { flag: 'limited-link-id', env: 'CONTRACT_LIMITED_LINK_ID', value: 'ID', description: `a link of that account the suite may update (its destinationUrl becomes ${LIMITED_DESTINATION}) (default none: not checked)` },
  { flag: 'fuzz-runs', env: 'CONTRACT_FUZZ_RUNS', value: 'N', description: `fuzzed requests; 0 switches fuzzing off (default ${DEFAULT_FUZZ_RUNS})` },
  { flag: 'seed', env: 'CONTRACT_SEED', value: 'N', description: 'seed of the fuzzer, to replay a run (default: from the clock, printed in the report)' },
  { flag: 'timeout-ms', env: 'CONTRACT_TIMEOUT_MS', value: 'N', description: `bound of each request (default ${DEFAULT_TIMEOUT_MS})` },
  { flag: 'contract', env: 'CONTRACT_FILE', value: 'FILE', description: 'check against this OpenAPI file instead of the shipped openapi.yaml, e.g. the next version a mock serves with --contract FILE (refused as the mock refuses it)' },
  { flag: 'junit', env: 'CONTRACT_JUNIT', value: 'FILE', description: 'also write the report as JUnit XML to FILE (checked before the run; missing directories are created)' },
  { flag: 'help', description: 'print this help and exit' },
] as const;

/** A bad flag: exit 2 with the message. */
export class UsageError extends Error {}

export type { Given };

/** The value as the user set it, `--junit x.xml` or `CONTRACT_JUNIT=x.xml`, for a message about it. */
export function asGiven(given: Given): string {
  return given.from.startsWith('--') ? `${given.from} ${given.value}` : `${given.from}=${given.value}`;
}

export function parseCommand(argv: readonly string[], env: Env): { options: ContractOptions; junit?: Given } | 'help' {
  let values: FlagValues;
  try {
    // The mock CLI's parser and words (`--seed -1`: "needs a value … write --seed=VALUE"); the
    // pointer to --help is added to every refusal by runContractCommand.
    values = parseFlags(argv, Object.fromEntries(FLAGS.map((option) => [option.flag, { type: option.flag === 'help' ? 'boolean' : 'string' }])), [], '');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values['help'] === true) return 'help';
  // Each refusal names what the user set: a stale CONTRACT_* variable is not blamed on a flag nobody typed.
  const read = (flag: (typeof FLAGS)[number]['flag']): Given | undefined => {
    const option = FLAGS.find((candidate) => candidate.flag === flag);
    return flagOrEnv(values[flag], flag, env, option && 'env' in option ? option.env : undefined, (message) => new UsageError(message));
  };
  const text = (flag: (typeof FLAGS)[number]['flag']): string | undefined => read(flag)?.value;
  const baseUrl = read('base-url') ?? missing('base-url', 'CONTRACT_BASE_URL');
  if (!/^https?:\/\/[^/\s]+/.test(baseUrl.value)) throw new UsageError(`${baseUrl.from} must be an http(s) URL such as http://127.0.0.1:4010, got '${baseUrl.value}'`);
  const junit = read('junit');
  return {
    options: {
      baseUrl: baseUrl.value,
      apiKey: text('api-key') ?? missing('api-key', 'CONTRACT_API_KEY'),
      otherApiKey: text('other-api-key'),
      domain: text('domain'),
      otherDomain: text('other-domain'),
      otherAccountDomain: text('other-account-domain'),
      limitedApiKey: text('limited-api-key'),
      limitedLinkId: text('limited-link-id'),
      fuzzRuns: integer(read('fuzz-runs'), 0, 100_000),
      seed: integer(read('seed'), 0, 2 ** 31 - 1),
      timeoutMs: integer(read('timeout-ms'), 1, 600_000),
      contract: contractFile(read('contract')),
    },
    ...(junit ? { junit } : {}),
  };
}

/** FILE, once it is a contract the mock would serve: refused here, before any request, as the mock refuses it. */
function contractFile(file: Given | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    readUserContract(file.value);
  } catch (error) {
    if ((error as Error).name === 'ContractFileError') throw new UsageError(`cannot check against ${asGiven(file)}: ${(error as Error).message.split('\n')[0] ?? ''}`);
    throw error;
  }
  return file.value;
}

function missing(flag: string, env: string): never {
  throw new UsageError(`--${flag} is required (or set ${env})`);
}

function integer(given: Given | undefined, min: number, max: number): number | undefined {
  if (given === undefined) return undefined;
  const parsed = /^\d+$/.test(given.value) ? Number(given.value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) throw new UsageError(`${given.from} must be a whole number from ${min} to ${max}, got '${given.value}'`);
  return parsed;
}
