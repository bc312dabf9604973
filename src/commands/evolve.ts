// `shortlink-mock evolve --contract NEXT`: whose calls break if NEXT ships? Every recorded exchange
// (a running mock's journal, a saved journal, pacts) judged against NEXT beside --from, gathered
// per consumer, with the rule-based spec diff beside it (src/commands/evolve/). Exit 0: no consumer
// has a breaking finding; 1: one has; 2: a bad flag or an input that cannot be read (one line).
import { parseArgs } from 'node:util';
import { writeJUnitFile, writeReportFile } from '../contract/junit-file.js';
import { junitPathProblem } from '../contract/junit-path.js';
import { CONTRACT_FILE } from '../contract/package-files.js';
import { isClientHeader } from '../core/journal.js';
import { DEFAULT_BASE_URL, mockBaseUrl, UsageError, type Given } from '../toolkit/admin-flags.js';
import { Consumers, MAX_CONSUMERS, MAX_FINDINGS_PER_CONSUMER } from './evolve/consumers.js';
import { ContractFileError, MAX_CONTRACT_BYTES, readContractFile } from './evolve/contract-file.js';
import { ContractView } from './evolve/contract-view.js';
import type { ConsumerBy } from './evolve/exchanges.js';
import { InputError, MAX_EXCHANGES, MAX_JOURNAL_FILE_BYTES, readRecorded, type Source } from './evolve/input.js';
import { Judge } from './evolve/judge.js';
import { jsonReport, junitReport, textReport, type EvolveResult } from './evolve/report.js';
import { specDiff } from './evolve/spec-diff.js';

export interface EvolveIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
const consoleIo: EvolveIo = { out: (text) => console.log(text), err: (text) => console.error(text) };

const NAME = 'shortlink-mock evolve';
const EXIT_OK = 0;
const EXIT_BREAKS = 1;
const EXIT_USAGE = 2;

export function evolveHelpText(): string {
  return `Usage: ${NAME} --contract NEXT [--base-url URL | --journal FILE | --pact FILE…] [options]

Whose calls break if NEXT ships? Every recorded exchange is judged against NEXT beside the current
contract (--from): breaking when NEXT would refuse the request as sent (operation or method gone, a
security header, a path parameter or body field now invalid) or no longer documents the status it
got; changed when the request passes but the answer it got is no longer what NEXT allows (a field
now invalid, newly required, or no longer required). Findings are gathered per consumer, each with a
replay curl against a mock started with --contract NEXT, and the spec diff between --from and NEXT
is listed with the consumers each change hits.

Exit code 0: no consumer breaks; 1: one does; 2: a bad flag or an input that cannot be read.

Options:
  --contract NEXT          the next contract (OpenAPI 3.0.x, YAML or JSON; required)
  --from FILE              the current contract (default: the package's openapi.yaml)
  --base-url URL           read the journal of the mock running there (default ${DEFAULT_BASE_URL})
  --admin-token TOKEN      its admin token (env MOCK_ADMIN_TOKEN)
  --journal FILE           read a saved journal instead: the JSON of GET /__admin/requests; add its
                           "accounts" (from GET /__admin/accounts) to name consumers by account
  --pact FILE…             read pacts instead (each names its consumer); repeat --pact or list files
  --consumer-by header:NAME   name a journal's consumers by a recorded request header (user-agent,
                           x-client-*) instead of by their API key's account
  --json FILE              also write the result as JSON
  --junit FILE             also write JUnit XML (one testsuite per consumer, one testcase per operation)
  --help                   print this help and exit

Limits: at most ${MAX_EXCHANGES} exchanges (the rest counted as skipped), ${MAX_FINDINGS_PER_CONSUMER} distinct findings per
consumer, ${MAX_CONSUMERS} consumers; a contract of at most ${MAX_CONTRACT_BYTES / 1024 / 1024} MiB, a journal file of at most ${MAX_JOURNAL_FILE_BYTES / 1024 / 1024} MiB.`;
}

interface Options {
  next: string;
  from: string;
  source: Source;
  consumerBy: ConsumerBy;
  json?: string;
  junit?: string;
}

export async function runEvolveCommand(argv: readonly string[], env: NodeJS.ProcessEnv, io: EvolveIo = consoleIo): Promise<number> {
  try {
    const options = parseOptions(argv, env);
    if (options === 'help') {
      io.out(evolveHelpText());
      return EXIT_OK;
    }
    const result = await evolve(options);
    io.out(textReport(result, options.from === CONTRACT_FILE ? 'openapi.yaml' : options.from, options.next));
    if (options.json !== undefined && !writeReportFile({ file: options.json, text: jsonReport(result), flag: '--json', label: 'JSON' }, NAME, io)) return EXIT_USAGE;
    if (options.junit !== undefined && !writeJUnitFile(options.junit, junitReport(result), NAME, io)) return EXIT_USAGE;
    return result.consumers.some((verdict) => verdict.breaking.length > 0) ? EXIT_BREAKS : EXIT_OK;
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ContractFileError || error instanceof InputError)) throw error;
    io.err(`${NAME}: ${oneLine(error.message)}${error instanceof UsageError ? ` (see ${NAME} --help)` : ''}`);
    return EXIT_USAGE;
  }
}

/** Contracts already read and compiled (a caller judging many inputs against one NEXT compiles it once). */
export interface Compiled {
  from?: ContractView;
  next?: ContractView;
}

/** The whole judgement, files and network read, nothing written. */
export async function evolve(options: Omit<Options, 'json' | 'junit'>, compiled: Compiled = {}): Promise<EvolveResult> {
  const from = compiled.from ?? view(options.from, '--from');
  const next = compiled.next ?? view(options.next, '--contract');
  const recorded = await readRecorded(options.source, options.consumerBy);
  const judge = new Judge(from, next);
  const consumers = new Consumers();
  for (const exchange of recorded.exchanges) {
    const { operationId, findings } = judge.judged(exchange);
    consumers.add(exchange, operationId, findings);
  }
  const verdicts = consumers.verdicts();
  return { from: from.version, to: next.version, source: recorded.from, exchanges: recorded.exchanges.length, skipped: recorded.skipped, unjudged: recorded.unjudged, consumers: verdicts, changes: specDiff(from, next, verdicts) };
}

export function view(file: string, flag: string): ContractView {
  const contract = readContractFile(file);
  try {
    return new ContractView(contract);
  } catch (error) {
    throw new ContractFileError(`${flag} ${file} cannot be compiled: ${(error as Error).message}`);
  }
}

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options | 'help' {
  let parsed;
  try {
    const text = { type: 'string' } as const;
    const options = { contract: text, from: text, 'base-url': text, 'admin-token': text, journal: text, pact: { type: 'string', multiple: true }, 'consumer-by': text, json: text, junit: text, help: { type: 'boolean' } } as const;
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  const { values, positionals } = parsed;
  if (values.help === true) return 'help';
  for (const [flag, value] of Object.entries(values)) if (typeof value === 'string' && value.trim() === '') throw new UsageError(`--${flag} must not be empty`);
  if (values.contract === undefined) throw new UsageError('name the next contract with --contract NEXT');
  const pacts = [...(values.pact ?? []), ...positionals];
  if (positionals.length > 0 && values.pact === undefined) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const sources = [values['base-url'] !== undefined, values.journal !== undefined, pacts.length > 0].filter(Boolean).length;
  if (sources > 1) throw new UsageError('give one of --base-url, --journal or --pact');
  for (const flag of ['json', 'junit'] as const) {
    const problem = values[flag] === undefined ? undefined : junitPathProblem(values[flag]);
    if (problem) throw new UsageError(`cannot write --${flag} ${values[flag]}: ${problem}`);
  }
  return {
    next: values.contract,
    from: values.from ?? CONTRACT_FILE,
    source: sourceOf(values.journal, pacts, givenBaseUrl(values['base-url'], env['MOCK_BASE_URL']), values['admin-token'] ?? env['MOCK_ADMIN_TOKEN']),
    consumerBy: consumerBy(values['consumer-by'], pacts.length > 0),
    ...(values.json === undefined ? {} : { json: values.json }),
    ...(values.junit === undefined ? {} : { junit: values.junit }),
  };
}

/** --base-url, else MOCK_BASE_URL, with where it came from for the refusal. */
function givenBaseUrl(flag: string | undefined, env: string | undefined): Given | undefined {
  if (flag !== undefined) return { value: flag, from: '--base-url' };
  return env === undefined ? undefined : { value: env.trim(), from: 'MOCK_BASE_URL' };
}

function sourceOf(journal: string | undefined, pacts: string[], baseUrl: Given | undefined, adminToken: string | undefined): Source {
  if (journal !== undefined) return { kind: 'journal', file: journal };
  if (pacts.length > 0) return { kind: 'pact', files: pacts };
  return { kind: 'base-url', url: mockBaseUrl(baseUrl), ...(adminToken === undefined ? {} : { adminToken }) };
}

function consumerBy(value: string | undefined, pacts: boolean): ConsumerBy {
  if (value === undefined) return { kind: 'key' };
  if (pacts) throw new UsageError('--consumer-by applies to a journal: a pact names its consumer');
  const header = /^header:([A-Za-z0-9!#$%&'*+.^_`|~-]+)$/.exec(value);
  if (!header?.[1]) throw new UsageError(`--consumer-by must be header:NAME (e.g. header:user-agent), got '${value}'`);
  const name = header[1].toLowerCase();
  // A header the journal never keeps would name no consumer at all: every exchange would be one '(no NAME)'.
  if (!isClientHeader(name)) throw new UsageError(`--consumer-by ${value}: the journal never keeps '${name}'; it keeps only user-agent and x-client-* headers (e.g. header:x-client-name)`);
  return { kind: 'header', name };
}

/** A refusal's line: room for an admin URL, the bound it broke and the hint naming the mock. */
const MAX_LINE_CHARS = 600;

function oneLine(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return flat.length > MAX_LINE_CHARS ? `${flat.slice(0, MAX_LINE_CHARS - 1)}…` : flat;
}
