// `shortlink-mock contract`: flags (each with a CONTRACT_* environment twin; flags win) → run the
// suite against the server → print the report, write JUnit XML if asked → exit code: 0 when no
// check failed, 1 when one did (or the server cannot be reached), 2 for a bad flag or a --junit
// path that cannot be written. Pure apart from its io: the CLI passes in argv and the environment.
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { asGiven, FLAGS, parseCommand, UsageError, type Env, type Given } from './command-flags.js';
import { DEFAULT_TIMEOUT_MS } from './client.js';
import { whyUnreachable } from './reachable.js';
import { junitPathProblem } from './junit-path.js';
import { formatReport, toJUnit } from './report.js';
import { runContract, type ContractOptions, type Report } from './runner.js';
import { activeScenarioNote } from './scenario-note.js';
import { makeDirectories } from './make-directories.js';

export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const EXIT_OK = 0;
const EXIT_VIOLATION = 1;
const EXIT_USAGE = 2;

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
  let parsed: { options: ContractOptions; junit?: Given } | 'help';
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
  const junitProblem = junit === undefined ? undefined : junitPathProblem(junit.value);
  if (junitProblem && junit) {
    io.err(`shortlink-mock contract: cannot write ${asGiven(junit)}: ${junitProblem}`);
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
function writeJUnit(junit: Given, report: Report, io: CommandIo): boolean {
  const file = resolve(junit.value);
  try {
    makeDirectories(dirname(file));
    writeFileSync(file, toJUnit(report));
    io.out(`JUnit report written to ${file}`);
    return true;
  } catch (error) {
    io.err(`shortlink-mock contract: cannot write ${asGiven(junit)}: ${(error as Error).message}`);
    return false;
  }
}

const consoleIo: CommandIo = { out: (text) => console.log(text), err: (text) => console.error(text) };
