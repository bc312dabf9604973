// `shortlink-mock pact check <pact.json> [--contract FILE] [--junit FILE]`: reads the pact and the
// contract, runs check.ts, prints the report, writes JUnit XML if asked. Exit code 0: every
// interaction keeps the contract; 1: one does not, or the pact file cannot be read or is not a pact
// we can check; 2: a bad flag, a --contract that cannot be read or used, or a --junit FILE that
// cannot be written. No environment twins: both files are named on the command line.
import { isAbsolute, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Contract } from '../core/contract-types.js';
import { writeJUnitFile } from '../contract/junit-file.js';
import { junitPathProblem } from '../contract/junit-path.js';
import { CONTRACT_FILE, readContract } from '../contract/package-files.js';
import { checkPact, type PactCheck } from './check.js';
import { formatPactReport, pactJUnit, refusalJUnit } from './check-report.js';
import { SUPPORTED_VERSIONS } from './pact-file.js';
import { MAX_PACT_BYTES, MAX_PACT_DEPTH, MAX_PACT_INTERACTIONS, readPactJson } from './pact-input.js';

export interface PactCheckIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
const consoleIo: PactCheckIo = { out: (text) => console.log(text), err: (text) => console.error(text) };

const EXIT_OK = 0;
const EXIT_MISMATCH = 1;
const EXIT_USAGE = 2;
const NAME = 'shortlink-mock pact check';

export function pactCheckHelpText(): string {
  return `Usage: ${NAME} <pact.json> [--contract FILE] [--junit FILE]

Checks every interaction of a consumer's Pact file against openapi.yaml, locally: is the request
allowed (an operation's path and method, the x-api-key header, a body valid against the request
schema), and is the expected response documented for that operation and status, with a body valid
against its schema (Error objects and their code included)? Matchers stand for their example
values, which are checked. Pact specification ${SUPPORTED_VERSIONS.map((major) => `V${major}`).join(', ')}; HTTP interactions.

Engines: PactFlow's swagger-mock-validator, plus the mock's own validators where it is lenient
(each problem names the one that found it). swagger-mock-validator is an optional dependency:
when it is not installed, the mock's own validators judge the expected statuses, content types
and bodies too, and the report says so at the top.

Exit code 0: every interaction keeps the contract; 1: one does not, or the pact file cannot be read
or is not a supported pact; 2: a bad flag, a --contract FILE that cannot be read or used, or a
--junit FILE that cannot be written.

Limits: a pact file of at most ${MAX_PACT_BYTES / 1024 / 1024} MiB, in UTF-8, nested at most ${MAX_PACT_DEPTH} levels, with at most
${MAX_PACT_INTERACTIONS} interactions; past them it is refused (exit 1, the reason in the --junit file too).

Options:
  --contract FILE   the OpenAPI document to check against (default: the package's openapi.yaml)
  --junit FILE      also write the result as JUnit XML to FILE (missing directories are created)
  --help            print this help and exit`;
}

class UsageError extends Error {}

interface Options {
  pactFile: string;
  contractFile: string;
  junit?: string;
}

export async function runPactCheck(argv: readonly string[], env: NodeJS.ProcessEnv, io: PactCheckIo = consoleIo): Promise<number> {
  void env;
  let options: Options | 'help';
  let contract: Contract;
  try {
    options = parseOptions(argv);
    if (options === 'help') {
      io.out(pactCheckHelpText());
      return EXIT_OK;
    }
    contract = loadContract(options.contractFile);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${NAME}: ${error.message} (see ${NAME} --help)`);
    return EXIT_USAGE;
  }
  const pactJson = readPactJson(options.pactFile);
  if ('problem' in pactJson) return refuse(pactJson.problem, options, io);
  let check: PactCheck;
  try {
    check = await checkPact(pactJson.json, contract);
  } catch (error) {
    // An input neither reading nor the engines foresaw: still one line and a JUnit file, not a stack.
    return refuse(`${options.pactFile} cannot be checked: it made the check fail (${(error as Error).message ?? String(error)})`, options, io);
  }
  if (check.kind === 'refused') return refuse(`${options.pactFile} cannot be checked: ${check.reason}`, options, io);
  if (check.kind === 'contract-refused') {
    io.err(`${NAME}: the contract ${shown(options.contractFile)} cannot be used: ${check.reason}`);
    return EXIT_USAGE;
  }
  io.out(formatPactReport(check, options.pactFile, shown(options.contractFile)));
  if (options.junit !== undefined && !writeJUnitFile(options.junit, pactJUnit(check, options.pactFile), NAME, io)) return EXIT_USAGE;
  return check.passed ? EXIT_OK : EXIT_MISMATCH;
}

function parseOptions(argv: readonly string[]): Options | 'help' {
  let parsed;
  try {
    const text = { type: 'string' } as const;
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: { contract: text, junit: text, help: { type: 'boolean' } } });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  const { values, positionals } = parsed;
  if (values.help === true) return 'help';
  if (positionals.length === 0) throw new UsageError('name the pact file to check');
  if (positionals.length > 1) throw new UsageError(`one pact file at a time, got ${positionals.length}: ${positionals.join(' ')}`);
  for (const flag of ['contract', 'junit'] as const) {
    if (values[flag]?.trim() === '') throw new UsageError(`--${flag} must not be empty`);
  }
  const junitProblem = values.junit === undefined ? undefined : junitPathProblem(values.junit);
  if (junitProblem) throw new UsageError(`cannot write --junit ${values.junit}: ${junitProblem}`);
  return { pactFile: positionals[0] ?? '', contractFile: values.contract ?? CONTRACT_FILE, ...(values.junit === undefined ? {} : { junit: values.junit }) };
}

function loadContract(file: string): Contract {
  let contract: Contract;
  try {
    contract = readContract(file);
  } catch (error) {
    throw new UsageError(`cannot read --contract ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  const document = contract.document as unknown;
  if (typeof document !== 'object' || document === null || typeof (document as { paths?: unknown }).paths !== 'object') {
    throw new UsageError(`--contract ${file} is not an OpenAPI document (it has no paths)`);
  }
  return contract;
}

/**
 * A pact file not checked: one line on stderr (its reason may quote the file, so it is made one
 * line of bounded length), the JUnit file written if asked (CI finds the refusal where it looks
 * for results), exit 1.
 */
function refuse(problem: string, options: Options, io: PactCheckIo): number {
  const reason = oneLine(problem);
  io.err(`${NAME}: ${reason}`);
  if (options.junit !== undefined && !writeJUnitFile(options.junit, refusalJUnit(options.pactFile, reason), NAME, io)) return EXIT_USAGE;
  return EXIT_MISMATCH;
}

const MAX_REASON_CHARS = 300;

/** Control characters (line breaks, ESC) escaped, and cut to MAX_REASON_CHARS. */
function oneLine(text: string): string {
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > MAX_REASON_CHARS ? `${escaped.slice(0, MAX_REASON_CHARS - 1)}…` : escaped;
}

/** The package's own contract by name; another one relative to here when below here, else absolute. */
function shown(contractFile: string): string {
  if (contractFile === CONTRACT_FILE) return 'openapi.yaml of shortlink-mock';
  const path = relative(process.cwd(), resolve(contractFile));
  return path && !path.startsWith('..') && !isAbsolute(path) ? path : resolve(contractFile);
}
