// `shortlink-mock contract`: flags (each with a CONTRACT_* environment twin; flags win) → run the
// suite against the server → print the report, write JUnit XML if asked → exit code: 0 when no
// check failed, 1 when one did (or the server cannot be reached), 2 for a bad flag or a --junit
// path that cannot be written. Pure apart from its io: the CLI passes in argv and the environment.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readUserContract } from './user-contract.js';
import { DEFAULT_TIMEOUT_MS } from './client.js';
import { whyUnreachable } from './reachable.js';
import { LIMITED_DESTINATION } from './cases-limit.js';
import { DEFAULT_FUZZ_RUNS } from './fuzz.js';
import { junitPathProblem } from './junit-path.js';
import { formatReport, toJUnit } from './report.js';
import { DEFAULT_DOMAIN, runContract, type ContractOptions, type Report } from './runner.js';
import { activeScenarioNote } from './scenario-note.js';

type Env = Record<string, string | undefined>;

export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const EXIT_OK = 0;
const EXIT_VIOLATION = 1;
const EXIT_USAGE = 2;

const FLAGS = [
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

class UsageError extends Error {}

export function contractHelpText(): string {
  const rows = FLAGS.map((option) => {
    const left = `--${option.flag}${'value' in option ? ` ${option.value}` : ''}`;
    return `  ${left.padEnd(28)} ${option.description}${'env' in option ? ` [env ${option.env}]` : ''}`;
  });
  return [
    'Usage: shortlink-mock contract --base-url URL --api-key KEY [options]',
    '',
    'Checks a live server against openapi.yaml: every operation and documented status, the stateful',
    'rules, and fuzzed requests; deletes what it creates. Exit code 0: no violation; 1: a violation',
    '(or the server cannot be reached); 2: a bad flag, or a --junit FILE that cannot be written.',
    '',
    'Options:',
    ...rows,
    '',
    'Flags win over environment variables.',
  ].join('\n');
}

export async function runContractCommand(argv: readonly string[], env: Env, io: CommandIo = consoleIo): Promise<number> {
  let parsed: { options: ContractOptions; junit?: string } | 'help';
  try {
    parsed = parseCommand(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`shortlink-mock contract: ${error.message} (see shortlink-mock contract --help)`);
    return EXIT_USAGE;
  }
  if (parsed === 'help') {
    io.out(contractHelpText());
    return EXIT_OK;
  }
  const { options, junit } = parsed;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Before any request: a report that cannot be written should not cost a whole run first.
  const junitProblem = junit === undefined ? undefined : junitPathProblem(junit);
  if (junitProblem) {
    io.err(`shortlink-mock contract: cannot write --junit ${junit}: ${junitProblem}`);
    return EXIT_USAGE;
  }
  // One plain request first: an unreachable server is one clear line, not a failure per check.
  const unreachable = await whyUnreachable(options.baseUrl, timeoutMs);
  if (unreachable) {
    io.err(`shortlink-mock contract: cannot reach ${options.baseUrl}: ${unreachable}`);
    return EXIT_VIOLATION;
  }
  const report = await runContract(options);
  const note = report.counts.failed > 0 ? await activeScenarioNote(options.baseUrl, timeoutMs) : undefined;
  io.out(formatReport(report, note === undefined ? [] : [note]));
  if (junit && !writeJUnit(junit, report, io)) return EXIT_USAGE;
  return report.counts.failed > 0 ? EXIT_VIOLATION : EXIT_OK;
}

/** Writes the XML, creating missing directories; false (and one line on stderr) when it cannot. */
function writeJUnit(junit: string, report: Report, io: CommandIo): boolean {
  try {
    mkdirSync(dirname(resolve(junit)), { recursive: true });
    writeFileSync(resolve(junit), toJUnit(report));
    io.out(`JUnit report written to ${resolve(junit)}`);
    return true;
  } catch (error) {
    io.err(`shortlink-mock contract: cannot write --junit ${junit}: ${(error as Error).message}`);
    return false;
  }
}

function parseCommand(argv: readonly string[], env: Env): { options: ContractOptions; junit?: string } | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(FLAGS.map((option) => [option.flag, { type: option.flag === 'help' ? ('boolean' as const) : ('string' as const) }]));
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  if (values['help'] === true) return 'help';
  const text = (flag: (typeof FLAGS)[number]['flag']): string | undefined => {
    const option = FLAGS.find((candidate) => candidate.flag === flag);
    const value = values[flag] ?? (option && 'env' in option ? env[option.env] : undefined);
    if (typeof value !== 'string') return undefined;
    if (value.trim() === '') throw new UsageError(`--${flag} must not be empty`);
    return value.trim();
  };
  const baseUrl = text('base-url') ?? missing('base-url', 'CONTRACT_BASE_URL');
  if (!/^https?:\/\/[^/\s]+/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL such as http://127.0.0.1:4010, got '${baseUrl}'`);
  const junit = text('junit');
  return {
    options: {
      baseUrl,
      apiKey: text('api-key') ?? missing('api-key', 'CONTRACT_API_KEY'),
      otherApiKey: text('other-api-key'),
      domain: text('domain'),
      otherDomain: text('other-domain'),
      otherAccountDomain: text('other-account-domain'),
      limitedApiKey: text('limited-api-key'),
      limitedLinkId: text('limited-link-id'),
      fuzzRuns: integer('fuzz-runs', text('fuzz-runs'), 0, 100_000),
      seed: integer('seed', text('seed'), 0, 2 ** 31 - 1),
      timeoutMs: integer('timeout-ms', text('timeout-ms'), 1, 600_000),
      contract: contractFile(text('contract')),
    },
    ...(junit ? { junit } : {}),
  };
}

/** FILE, once it is a contract the mock would serve: refused here, before any request, as the mock refuses it. */
function contractFile(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    readUserContract(file);
  } catch (error) {
    if ((error as Error).name === 'ContractFileError') throw new UsageError(`cannot check against --contract ${file}: ${(error as Error).message.split('\n')[0] ?? ''}`);
    throw error;
  }
  return file;
}

function missing(flag: string, env: string): never {
  throw new UsageError(`--${flag} is required (or set ${env})`);
}

function integer(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, got '${value}'`);
  return parsed;
}

const consoleIo: CommandIo = { out: (text) => console.log(text), err: (text) => console.error(text) };
