// `shortlink-mock coverage`: the error-path coverage of a running mock as a table: which documented
// outcomes each key's client has met, and which it has never met. Called by src/cli.ts with
// process.env; reads nothing else of the process.
import { DEFAULT_BASE_URL, parseAdminFlags, type AdminTarget } from '../toolkit/admin-flags.js';
import { consoleIo, EXIT_FAILED, EXIT_OK, getAdmin, runAdminCommand, type CommandIo } from './admin-command.js';
import { formatCoverage, type CoverageReport } from './coverage-table.js';

export { formatCoverage } from './coverage-table.js';

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

export type CoverageIo = CommandIo;

export const coverageHelpText = (): string => USAGE;

interface Options extends AdminTarget {
  account?: string;
}

function parseOptions(argv: readonly string[], env: Record<string, string | undefined>): Options | 'help' {
  const parsed = parseAdminFlags(argv, env, ['account']);
  if (parsed === 'help') return 'help';
  const account = parsed.read('account')?.value;
  return { ...parsed.target, ...(account === undefined ? {} : { account }) };
}

export function runCoverageCommand(argv: readonly string[], env: Record<string, string | undefined>, io: CoverageIo = consoleIo): Promise<number> {
  return runAdminCommand('coverage', io, USAGE, () => parseOptions(argv, env), async (options) => {
    const query = options.account === undefined ? undefined : { account: options.account };
    const answer = await getAdmin<CoverageReport>({ target: options, path: '/coverage', ...(query ? { query } : {}) });
    if ('error' in answer) {
      io.err(`shortlink-mock coverage: ${answer.error}`);
      return EXIT_FAILED;
    }
    io.out(formatCoverage(answer.body, options.account));
    return EXIT_OK;
  });
}
