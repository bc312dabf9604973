// `shortlink-mock pact check <pact.json> [--contract FILE] [--junit FILE]`: reads the pact and the
// contract, runs check.ts, prints the report, writes JUnit XML if asked. Exit code 0: every
// interaction keeps the contract; 1: one does not, or the pact file cannot be read or is not a pact
// we can check; 2: a bad flag, a --contract that cannot be read or used, or a --junit FILE that
// cannot be written. No environment twins: both files are named on the command line.
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Contract } from '../app.js';
import { writeJUnitFile } from '../contract/junit-file.js';
import { junitPathProblem } from '../contract/junit-path.js';
import { CONTRACT_FILE, readContract } from '../package-files.js';
import { checkPact } from './check.js';
import { formatPactReport, pactJUnit } from './check-report.js';
import { SUPPORTED_VERSIONS } from './pact-file.js';

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
  if ('problem' in pactJson) {
    io.err(`${NAME}: ${pactJson.problem}`);
    return EXIT_MISMATCH;
  }
  const check = await checkPact(pactJson.json, contract);
  if (check.kind === 'refused') {
    io.err(`${NAME}: ${options.pactFile} cannot be checked: ${check.reason}`);
    return EXIT_MISMATCH;
  }
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

function readPactJson(file: string): { json: unknown } | { problem: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { problem: `cannot read pact file ${file}: ${(error as Error).message}` };
  }
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: `${file} is not valid JSON: ${(error as Error).message}` };
  }
}

/** The package's own contract by name; another one relative to here when below here, else absolute. */
function shown(contractFile: string): string {
  if (contractFile === CONTRACT_FILE) return 'openapi.yaml of shortlink-mock';
  const path = relative(process.cwd(), resolve(contractFile));
  return path && !path.startsWith('..') && !isAbsolute(path) ? path : resolve(contractFile);
}
