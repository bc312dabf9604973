// `shortlink-mock drift`: the drift report of a mock running as a validating proxy (--proxy): the
// distinct ways real exchanges broke openapi.yaml, grouped by operation and status, with one
// example each; non-zero when there are any, so CI fails on drift. Called by src/cli.ts with
// process.env; reads nothing else of the process.
import { writeJUnitFile } from '../contract/junit-file.js';
import { junitPathProblem } from '../contract/junit-path.js';
import { VIOLATION_SIDES, type ViolationReport, type ViolationSide } from '../core/violations.js';
import { DEFAULT_BASE_URL, parseAdminFlags, UsageError, type AdminTarget, type Given } from '../toolkit/admin-flags.js';
import { consoleIo, EXIT_FAILED, EXIT_OK, EXIT_USAGE, getAdmin, runAdminCommand, type CommandIo } from './admin-command.js';
import { driftJUnit, formatDrift } from './drift-format.js';

export { driftJUnit, formatDrift } from './drift-format.js';

const USAGE = `Usage: shortlink-mock drift [--base-url URL] [--admin-token TOKEN] [--side response|request|both] [--junit FILE]

Prints the contract drift a running mock in proxy mode (--proxy) has seen: the distinct ways the
client's requests or the upstream's answers broke openapi.yaml, grouped by operation and status,
each with how often, when first and last, and one example exchange (API key masked). The same as
GET /__admin/violations; DELETE /__admin/violations starts over. Exit code 0: no violation seen;
1: violations seen, or the mock cannot be reached or refused the request; 2: a bad flag, or a
--junit FILE that cannot be written.

Options:
  --base-url URL         the running mock (default ${DEFAULT_BASE_URL}) [env MOCK_BASE_URL]
  --admin-token TOKEN    the token the mock was started with, if any (default none) [env MOCK_ADMIN_TOKEN, as for the mock]
  --side SIDE            whose violations count: response (the upstream's answers only, to gate on
                         the upstream while a client suite sends bad requests on purpose), request
                         (the client's only) or both (default both) [env MOCK_DRIFT_SIDE]
  --junit FILE           also write the report as JUnit XML to FILE: a failing testcase per distinct
                         violation, one passing testcase when there is none (missing directories are created)
  --help                 print this help and exit

Flags win over environment variables.`;

export const driftHelpText = (): string => USAGE;

interface Options extends AdminTarget {
  junit?: string;
  side: ViolationSide;
}

function parseOptions(argv: readonly string[], env: Record<string, string | undefined>): Options | 'help' {
  const parsed = parseAdminFlags(argv, env, ['junit', 'side']);
  if (parsed === 'help') return 'help';
  const junit = parsed.read('junit')?.value;
  // Checked before asking the mock: a report that cannot be written is a bad flag.
  const problem = junit === undefined ? undefined : junitPathProblem(junit);
  if (problem) throw new UsageError(`cannot write --junit ${junit}: ${problem}`);
  return { ...parsed.target, ...(junit === undefined ? {} : { junit }), side: sideOf(parsed.read('side', 'MOCK_DRIFT_SIDE')) };
}

function sideOf(given: Given | undefined): ViolationSide {
  if (given === undefined) return 'both';
  if ((VIOLATION_SIDES as readonly string[]).includes(given.value)) return given.value as ViolationSide;
  throw new UsageError(`${given.from} must be 'response', 'request' or 'both', got '${given.value}'`);
}

export function runDriftCommand(argv: readonly string[], env: Record<string, string | undefined>, io: CommandIo = consoleIo): Promise<number> {
  return runAdminCommand('drift', io, USAGE, () => parseOptions(argv, env), async (options) => {
    // ?side= only when asked: a mock of an earlier version, which knows no such parameter, still answers the whole report.
    const query: Record<string, string> = options.side === 'both' ? {} : { side: options.side };
    const answer = await getAdmin<ViolationReport>({ target: options, path: '/violations', query });
    if ('error' in answer) {
      io.err(`shortlink-mock drift: ${answer.error}`);
      return EXIT_FAILED;
    }
    const report = answer.body;
    io.out(formatDrift(report, options.baseUrl, options.side));
    if (options.junit !== undefined && !writeJUnitFile(options.junit, driftJUnit(report, options.baseUrl, options.side), 'shortlink-mock drift', io)) return EXIT_USAGE;
    return report.distinct > 0 || report.dropped > 0 ? EXIT_FAILED : EXIT_OK;
  });
}
