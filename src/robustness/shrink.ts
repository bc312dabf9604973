// A failing seed, shrunk: the smallest set of its dimensions that still fails the client's command
// (ddmin.ts), with one example answer per dimension from the journal of that smallest run. A set
// already found for an earlier seed is tried first: a brittle client fails most seeds the same way,
// and one rerun then spares a whole shrinking.
import { ddmin } from './ddmin.js';
import type { VarietyEntry, VarietySwitch } from './mock-target.js';
import type { ClientRun } from './client-run.js';

/** One run of the command under a variety setting, and the journal's entries of its answers. */
export interface VarietyRun {
  run: ClientRun;
  entries: VarietyEntry[];
}

/** Reruns of the command while shrinking: per failing seed, and for the whole robustness run. */
export interface ShrinkBudget {
  perFailure: number;
  total: number;
  /** Reruns spent so far, over every failure. */
  spent: number;
}

export const DEFAULT_RERUNS_PER_FAILURE = 40;
export const DEFAULT_RERUNS_TOTAL = 200;

/** One answer that used a dimension, as the journal recorded it. */
export interface Example {
  operationId: string | null;
  method: string;
  path: string;
  status: number | null;
  body: unknown;
}

export interface Failure {
  seed: number;
  /** The smallest set of dimensions found that still fails the command, in the order first met. */
  minimal: string[];
  examples: Record<string, Example>;
  /** The failing run with only `minimal` varied (or the seed's own run, when nothing was removed). */
  run: ClientRun;
  reruns: number;
  /** The rerun budget ran out: `minimal` fails but may not be the smallest. */
  exhausted: boolean;
  /** The earlier seed whose smallest set this one shares, when it was found that way. */
  sameAs?: number;
}

export interface ShrinkInput {
  seed: number;
  /** The seed's own failing run. */
  first: VarietyRun;
  used: string[];
  once: (variety: VarietySwitch) => Promise<VarietyRun>;
  /** Every dimension the mock knows. */
  allDimensions: () => Promise<string[]>;
  known: readonly Failure[];
  budget: ShrinkBudget;
  progress: (line: string) => void;
}

export async function shrinkFailure(input: ShrinkInput): Promise<Failure> {
  const { seed, used, budget } = input;
  const failing = new Map<string, VarietyRun>([[used.join('\n'), input.first]]);
  let reruns = 0;
  const fails = async (subset: string[]): Promise<boolean> => {
    reruns += 1;
    budget.spent += 1;
    const result = await input.once({ seed, only: subset });
    input.progress(`  shrinking seed ${seed}: ${subset.length} of ${used.length} dimensions: ${result.run.failed ? 'fails' : 'passes'}`);
    if (result.run.failed) failing.set(subset.join('\n'), result);
    return result.run.failed;
  };
  const allowed = (): number => Math.max(0, Math.min(input.budget.perFailure - reruns, budget.total - budget.spent));
  const earlier = await earlierSet(input, fails, allowed);
  const start = earlier?.minimal ?? (await reproduced(input, fails, allowed));
  // The budget ran out before the failure was seen again: the seed's own set, unshrunk.
  if (start === undefined) return { seed, minimal: used, examples: examplesOf(used, input.first.entries), run: input.first.run, reruns, exhausted: true };
  const shrunk = start.length > 1 ? await ddmin(start, fails, allowed()) : { minimal: start, exhausted: false };
  const run = failing.get(shrunk.minimal.join('\n')) ?? input.first;
  const examples = examplesOf(shrunk.minimal, failing.get(shrunk.minimal.join('\n'))?.entries ?? input.first.entries);
  const sameAs = earlier !== undefined && shrunk.minimal.join('\n') === earlier.minimal.join('\n') ? { sameAs: earlier.seed } : {};
  return { seed, minimal: shrunk.minimal, examples, run: run.run, reruns, exhausted: shrunk.exhausted, ...sameAs };
}

/**
 * The set to shrink, once it is seen to fail with `only` those dimensions: ddmin starts from a set
 * that fails. The journal may not name every dimension the run used (a run past the journal's
 * size keeps only its last entries), so every dimension the mock knows is the second try. [] when
 * neither fails again: the failure did not come from the variety (a flaky command); undefined
 * when the rerun budget ran out first.
 */
async function reproduced(input: ShrinkInput, fails: (subset: string[]) => Promise<boolean>, allowed: () => number): Promise<string[] | undefined> {
  if (allowed() === 0) return undefined;
  if (await fails(input.used)) return input.used;
  const all = await input.allDimensions();
  if (all.length <= input.used.length) return [];
  if (allowed() === 0) return undefined;
  return (await fails(all)) ? all : [];
}

/** The first smallest set of an earlier seed that this seed used too and that fails it alone. */
async function earlierSet(input: ShrinkInput, fails: (subset: string[]) => Promise<boolean>, allowed: () => number): Promise<Failure | undefined> {
  const tried = new Set<string>();
  for (const failure of input.known) {
    const key = failure.minimal.join('\n');
    if (failure.minimal.length === 0 || tried.has(key) || !failure.minimal.every((dimension) => input.used.includes(dimension))) continue;
    tried.add(key);
    if (allowed() === 0) return undefined;
    // In this seed's order: the report lists dimensions as this run met them.
    const subset = input.used.filter((dimension) => failure.minimal.includes(dimension));
    if (subset.length === input.used.length) return { ...failure, minimal: subset };
    if (await fails(subset)) return { ...failure, minimal: subset };
  }
  return undefined;
}

function examplesOf(dimensions: readonly string[], entries: readonly VarietyEntry[]): Record<string, Example> {
  const examples: Record<string, Example> = {};
  for (const dimension of dimensions) {
    const entry = entries.find((candidate) => candidate.variety?.dimensions.includes(dimension));
    if (entry) examples[dimension] = { operationId: entry.operationId, method: entry.method, path: entry.path, status: entry.status, body: entry.responseBody };
  }
  return examples;
}
