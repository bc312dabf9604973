// `shortlink-mock robustness`'s flags: its own, the admin commands' --base-url/--admin-token, and
// the client's command after `--`. A refusal is a UsageError (exit 2) naming the flag at fault.
import { junitPathProblem } from '../contract/junit-path.js';
import { parseAdminFlags, UsageError, type Given } from '../toolkit/admin-flags.js';
import { ConfigError, integer } from '../process/option-values.js';
import { MAX_SEED } from './seeds.js';
import { DEFAULT_RERUNS_PER_FAILURE, DEFAULT_RERUNS_TOTAL } from './shrink.js';

export const DEFAULT_RUNS = 20;
export const MAX_RUNS = 1_000;
export const DEFAULT_TIMEOUT_S = 600;
const MAX_TIMEOUT_S = 86_400;

export const ROBUSTNESS_USAGE = `Usage: shortlink-mock robustness [--runs N] [--seed S] [--base-url URL | --contract NEXT [--from FILE]] [--json FILE] [--junit FILE] -- <command...>

Runs your client's own test command against a mock in variety mode: every answer is one the
contract allows, drawn under a seed (createdAt with an offset, clickCount absent, titles at their
longest, tags in another order, another Content-Type, …). First once with variety off (a command
that fails then is broken by itself, and nothing is blamed on the contract), then once per seed.
The command gets the mock's address in MOCK_URL and SHORTLINK_MOCK_URL (with --api-key, the key in
MOCK_API_KEY and SHORTLINK_MOCK_API_KEY); a run fails when it exits non-zero. A failing seed is
shrunk (delta debugging, by rerunning the command with fewer dimensions) to the smallest set of
dimensions that still fails it, reported with one example answer each.
The report ends with each distinct cause and a line that replays it, to paste into a shell.
Exit code 0: every run passed; 1: a run failed (the report names the seed and the smallest set);
2: a bad flag, a mock that cannot be used, a command that fails even with variety off, or runs in
which no request got a varied answer (nothing was tested).

Options:
  --runs N               runs with variety on, each under its own seed (default ${DEFAULT_RUNS}, at most ${MAX_RUNS}) [env MOCK_ROBUSTNESS_RUNS]
  --seed S               the seed the runs' seeds are drawn from; the first run uses S itself, so
                         --runs 1 --seed S replays a failing seed S (default: random, printed) [env MOCK_ROBUSTNESS_SEED]
  --base-url URL         use the mock running there, through its admin API (its state is not reset
                         between runs); default: start one in this process, in memory [env MOCK_BASE_URL]
  --admin-token TOKEN    that mock's admin token, if it was started with one [env MOCK_ADMIN_TOKEN]
  --contract NEXT        the next contract: start a mock serving NEXT (as --contract NEXT does) and
                         vary only what NEXT newly allows against --from: a new optional field sent,
                         a new enum value, a field made nullable sent as null, one no longer required
                         left out, a newly documented status answered (dimensions next.<operationId>.
                         <pointer>:<variant>); the report lists the changes the command survived.
                         Not with --base-url (the runner starts its own mock)
  --from FILE            with --contract: today's contract (default: the shipped openapi.yaml)
  --api-key KEY          switch variety on for this API key only (PUT /__admin/variety with apiKey),
                         so that other suites sharing the mock get its usual answers; the command
                         must send this key, given to it in MOCK_API_KEY (default: for every request) [env MOCK_ROBUSTNESS_API_KEY]
  --timeout SECONDS      bound of one run of the command; past it the run is stopped and fails (default ${DEFAULT_TIMEOUT_S}) [env MOCK_ROBUSTNESS_TIMEOUT]
  --json FILE            also write the report as JSON to FILE
  --junit FILE           also write the report as JUnit XML to FILE: one testcase per seed
  --help                 print this help and exit

Shrinking reruns the command at most ${DEFAULT_RERUNS_PER_FAILURE} times per failing seed and ${DEFAULT_RERUNS_TOTAL} times in all.
Write the command as its words (-- npm test); for a shell line, -- sh -c '…'.
Flags win over environment variables.`;

export interface RobustnessOptions {
  runs: number;
  seed?: number;
  baseUrl?: string;
  adminToken?: string;
  apiKey?: string;
  timeoutMs: number;
  json?: string;
  junit?: string;
  /** --contract NEXT: a mock of our own serving NEXT, varied only by what it newly allows against `from`. */
  contract?: { next: string; from?: string };
  command: string[];
}

export function parseRobustnessOptions(argv: readonly string[], env: Record<string, string | undefined>): RobustnessOptions | 'help' {
  const split = argv.indexOf('--');
  const flags = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  const parsed = parseAdminFlags(flags, env, ['runs', 'seed', 'api-key', 'timeout', 'json', 'junit', 'contract', 'from']);
  if (parsed === 'help') return 'help';
  if (command.length === 0) throw new UsageError("give the client's test command after --, e.g. shortlink-mock robustness -- npm test");
  const seed = parsed.read('seed', 'MOCK_ROBUSTNESS_SEED');
  const apiKey = parsed.read('api-key', 'MOCK_ROBUSTNESS_API_KEY');
  const files = { json: writable(parsed.read('json')), junit: writable(parsed.read('junit')) };
  const contract = contractOption(parsed.read('contract')?.value, parsed.read('from')?.value, parsed.read('base-url') !== undefined);
  // With --contract the runner's own mock serves NEXT: a MOCK_BASE_URL of the environment is not it.
  const baseUrl = contract !== undefined || parsed.read('base-url', 'MOCK_BASE_URL') === undefined ? {} : { baseUrl: parsed.target.baseUrl };
  return {
    runs: whole(parsed.read('runs', 'MOCK_ROBUSTNESS_RUNS'), DEFAULT_RUNS, 1, MAX_RUNS),
    ...(seed === undefined ? {} : { seed: whole(seed, 0, 0, MAX_SEED) }),
    ...baseUrl,
    ...(parsed.target.token === undefined ? {} : { adminToken: parsed.target.token.value }),
    ...(apiKey === undefined ? {} : { apiKey: apiKey.value }),
    timeoutMs: whole(parsed.read('timeout', 'MOCK_ROBUSTNESS_TIMEOUT'), DEFAULT_TIMEOUT_S, 1, MAX_TIMEOUT_S) * 1000,
    ...(files.json === undefined ? {} : { json: files.json }),
    ...(files.junit === undefined ? {} : { junit: files.junit }),
    ...(contract === undefined ? {} : { contract }),
    command,
  };
}

function contractOption(next: string | undefined, from: string | undefined, baseUrl: boolean): RobustnessOptions['contract'] {
  if (next === undefined) {
    if (from !== undefined) throw new UsageError('--from is the contract --contract NEXT is measured against: give --contract NEXT too');
    return undefined;
  }
  if (baseUrl) throw new UsageError('--contract NEXT starts a mock of its own serving NEXT: drop --base-url');
  return { next, ...(from === undefined ? {} : { from }) };
}

function whole(given: Given | undefined, fallback: number, min: number, max: number): number {
  try {
    return integer(given?.from ?? '', given?.value, fallback, min, max);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** Checked before the first run: a report that cannot be written is a bad flag, not minutes lost. */
function writable(given: Given | undefined): string | undefined {
  const problem = given === undefined ? undefined : junitPathProblem(given.value);
  if (problem) throw new UsageError(`cannot write ${given?.from} ${given?.value}: ${problem}`);
  return given?.value;
}
