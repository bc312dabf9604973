// `shortlink-mock robustness -- <command...>`: the client's own test command run against every
// answer the contract allows (variety mode), each failure shrunk to the dimensions that cause it.
// Called by src/cli.ts with process.env; the work is in src/robustness/.
import { writeJUnitFile, writeReportFile } from '../contract/junit-file.js';
import { counted } from '../core/counted.js';
import { runClient, stopRunningClients } from '../robustness/client-run.js';
import { openTarget, type MockTarget } from '../robustness/mock-target.js';
import { parseRobustnessOptions, ROBUSTNESS_USAGE, type RobustnessOptions } from '../robustness/options.js';
import { jsonReport, junitReport, outputTail, nothingTested, textReport, type Finished } from '../robustness/report.js';
import { replayOf } from '../robustness/replay.js';
import { runRobustness, type SeedRun } from '../robustness/runner.js';
import type { Failure } from '../robustness/shrink.js';
import { randomBaseSeed, runSeeds } from '../robustness/seeds.js';
import { DEFAULT_RERUNS_PER_FAILURE, DEFAULT_RERUNS_TOTAL } from '../robustness/shrink.js';
import { AdminApiError } from '../toolkit/admin-client.js';
import { NAME_THE_MOCK } from '../toolkit/admin-flags.js';
import { consoleIo, EXIT_FAILED, EXIT_OK, EXIT_USAGE, runAdminCommand, type CommandIo } from './admin-command.js';

export interface RobustnessIo extends CommandIo {
  /** A progress line per run; absent (silent) when stdout is not a terminal. */
  progress?: (text: string) => void;
}

const defaultIo = (): RobustnessIo => ({ ...consoleIo, ...(process.stdout.isTTY ? { progress: consoleIo.out } : {}) });

export function runRobustnessCommand(argv: readonly string[], env: Record<string, string | undefined>, io: RobustnessIo = defaultIo()): Promise<number> {
  return runAdminCommand('robustness', io, ROBUSTNESS_USAGE, () => parseRobustnessOptions(argv, env), async (options) => {
    let target: MockTarget;
    try {
      target = await openTarget(options);
    } catch (error) {
      const unreachable = error instanceof AdminApiError && error.status === 0 ? `: ${NAME_THE_MOCK}` : '';
      io.err(`shortlink-mock robustness: ${options.contract ? contractRefusal(error as Error) : `cannot use the mock: ${(error as Error).message}${unreachable}`}`);
      return EXIT_USAGE;
    }
    // Stopped itself (Ctrl-C, CI's cancel): the client's run goes too, instead of living on alone.
    const onSignal = (signal: NodeJS.Signals): void => {
      void stopRunningClients().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
    try {
      return await robustness(options, env, target, io);
    } catch (error) {
      // The mock stopped answering its admin API mid-way: nothing can be concluded about the client.
      io.err(`shortlink-mock robustness: the mock failed mid-run: ${(error as Error).message}`);
      return EXIT_USAGE;
    } finally {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      await target.stop();
    }
  });
}

/** A NEXT (or --from) the mock refuses to serve: its first problem, in the command's flags, on one line. */
function contractRefusal(error: Error): string {
  const message = error.message.replace(/^startMock: /, '').replace(/options\.contract\b/g, '--contract').replace(/options\.varietyFrom\b/g, '--from');
  return message.split('\n')[0] ?? message;
}

async function robustness(options: RobustnessOptions, env: Record<string, string | undefined>, target: MockTarget, io: RobustnessIo): Promise<number> {
  const baseSeed = options.seed ?? randomBaseSeed();
  const dimensions = await target.dimensions();
  if (options.contract && dimensions.length === 0) {
    io.err(`shortlink-mock robustness: ${options.contract.next} newly allows nothing an answer can show against ${options.contract.from ?? 'the shipped openapi.yaml'} (no new optional field, enum value, nullable or optional field, or status of an operation both have): nothing to vary`);
    return EXIT_USAGE;
  }
  // First, and only here, so that a run stopped half-way can still be replayed.
  io.out(`shortlink-mock robustness: ${counted(options.runs, 'run')} under seed ${baseSeed} against ${target.url} (replay them with --seed ${baseSeed})`);
  const outcome = await runRobustness({
    // Chosen so that every dimension the mock lists is turned on by some run (seeds.ts).
    seeds: runSeeds(baseSeed, options.runs, dimensions),
    target,
    execute: () => runClient({ argv: options.command, env, timeoutMs: options.timeoutMs, apiKey: options.apiKey }, target.url),
    budget: { perFailure: DEFAULT_RERUNS_PER_FAILURE, total: DEFAULT_RERUNS_TOTAL, spent: 0 },
    progress: io.progress ?? (() => {}),
  });
  if (outcome.kind === 'broken-alone') {
    const tail = outputTail(outcome.run.output, '  | ');
    io.err([`shortlink-mock robustness: the command fails with variety off (${outcome.run.reason}): the client's suite fails on its own, so no dimension is to blame. Fix it first; its last lines:`, ...tail].join('\n'));
    return EXIT_USAGE;
  }
  const descriptions = outcome.failures.length > 0 ? await target.descriptions() : new Map<string, string>();
  const { baseline, runs, failures, dimensionsSeen } = outcome;
  const survived = options.contract ? { survived: survivedChanges(runs, failures) } : {};
  const report: Finished = { baseSeed, descriptions, runs, failures, dimensionsSeen, replay: replayOf(options), ...survived, ...(baseline.heldOutput ? { baseline } : {}) };
  io.out(textReport(report));
  if (options.json !== undefined && !writeReportFile({ file: options.json, text: jsonReport(report), flag: '--json', label: 'JSON' }, 'shortlink-mock robustness', io)) return EXIT_USAGE;
  if (options.junit !== undefined && !writeJUnitFile(options.junit, junitReport(report), 'shortlink-mock robustness', io)) return EXIT_USAGE;
  // A run set that met no varied answer proves nothing: no green for it (exit 2, like a command broken alone).
  const idle = nothingTested(report, options.apiKey);
  if (idle !== undefined) {
    io.err(`shortlink-mock robustness: nothing was tested: ${idle}`);
    return EXIT_USAGE;
  }
  return report.failures.length > 0 ? EXIT_FAILED : EXIT_OK;
}

/** The changes of NEXT the command met in a run that passed, and that no failure was shrunk to. */
function survivedChanges(runs: readonly SeedRun[], failures: readonly Failure[]): string[] {
  const blamed = new Set(failures.flatMap((failure) => failure.minimal));
  return [...new Set(runs.filter(({ run }) => !run.failed).flatMap(({ used }) => used))].filter((name) => !blamed.has(name)).sort();
}
