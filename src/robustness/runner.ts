// The robustness run: the client's command once with variety off (a suite that fails by itself is
// not the contract's fault), then once per seed with variety on; each failing seed shrunk to the
// smallest set of dimensions that still fails it, with the journal's answers as examples.
import { counted } from '../core/counted.js';
import type { ClientRun } from './client-run.js';
import type { MockTarget, VarietyEntry, VarietySwitch } from './mock-target.js';
import { shrinkFailure, type Failure, type ShrinkBudget, type VarietyRun } from './shrink.js';

export interface SeedRun {
  seed: number;
  run: ClientRun;
  /** The dimensions this run's answers used, from the journal (or every dimension, when it tells none). */
  used: string[];
  /** The requests the journal holds of this run (of the --api-key's account only, with one). */
  requests: number;
}

export type Outcome =
  | { kind: 'broken-alone'; run: ClientRun }
  | { kind: 'done'; baseline: ClientRun; runs: SeedRun[]; failures: Failure[]; dimensionsSeen: string[] };

export interface RunnerInput {
  seeds: readonly number[];
  target: MockTarget;
  /** Runs the client's command once against the target; never rejects. */
  execute: () => Promise<ClientRun>;
  budget: ShrinkBudget;
  /** One line per run and per shrinking step (the CLI prints them on a terminal only). */
  progress: (line: string) => void;
}

export async function runRobustness(input: RunnerInput): Promise<Outcome> {
  const { seeds, target, progress } = input;
  const once = (variety: VarietySwitch | null): Promise<VarietyRun> => runOnce(input, variety);
  progress('variety off: running the command once as it is');
  const baseline = await once(null);
  if (baseline.run.failed) return { kind: 'broken-alone', run: baseline.run };
  const runs: SeedRun[] = [];
  const failures: Failure[] = [];
  const seen = new Set<string>();
  for (const [index, seed] of seeds.entries()) {
    const { run, entries } = await once({ seed });
    const used = usedDimensions(entries);
    for (const dimension of used) seen.add(dimension);
    runs.push({ seed, run, used, requests: entries.length });
    progress(`run ${index + 1}/${seeds.length} seed ${seed}: ${verdict(run)} in ${(run.durationMs / 1000).toFixed(1)} s, ${counted(used.length, 'dimension')} varied`);
    if (run.failed) failures.push(await shrinkFailure({ seed, first: { run, entries }, used: used.length > 0 ? used : await target.dimensions(), once, allDimensions: () => target.dimensions(), known: failures, budget: input.budget, progress }));
  }
  return { kind: 'done', baseline: baseline.run, runs, failures, dimensionsSeen: [...seen].sort() };
}

/** `FAILED (exit 1)`, `passed`, or `passed (exit 0; left a process … holding its output …)`. */
function verdict(run: ClientRun): string {
  if (run.failed) return `FAILED (${run.reason})`;
  return run.heldOutput ? `passed (${run.reason})` : 'passed';
}

/** One run of the command under `variety` (null: off), and the journal's entries of its answers. */
async function runOnce(input: RunnerInput, variety: VarietySwitch | null): Promise<VarietyRun> {
  const { target } = input;
  await target.beforeRun();
  const mark = await target.journalMark();
  if (variety) await target.setVariety(variety);
  else await target.clearVariety();
  try {
    const run = await input.execute();
    return { run, entries: await target.journalAfter(mark) };
  } finally {
    if (variety) await target.afterVariedRun();
  }
}

/**
 * The dimensions the run's answers used, in the order first met. A failing run whose journal names
 * none (entries past the journal's size, a mock that does not record them) is shrunk over every
 * dimension the mock knows instead.
 */
function usedDimensions(entries: readonly VarietyEntry[]): string[] {
  const used = new Set<string>();
  for (const entry of entries) for (const dimension of entry.variety?.dimensions ?? []) used.add(dimension);
  return [...used];
}
