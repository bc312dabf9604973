// The scenarios a mock serves, in two layers: the built-in ones (the package's scenarios/, read
// once at start) and those of --scenarios DIR (read at start and at each --watch reload), a name
// in both being DIR's. One layer only with --no-builtin-scenarios, or when DIR is the built-in
// directory itself (the default), which is then read like any DIR.
import { resolve } from 'node:path';
import type { Scenario } from '../core/scenarios.js';

/** The set served, and where it came from, for the start-up and reload lines. */
export interface ServedScenarios {
  scenarios: Scenario[];
  /** DIR's scenarios that replace a built-in one of the same name. */
  replacing: Scenario[];
  /** How many of the served come from DIR, and how many are built in. */
  fromDir: number;
  builtIn: number;
}

/** Whether the built-in scenarios are a layer of their own under DIR's. */
export function hasBuiltInLayer(dir: string, builtInDir: string, withBuiltIns: boolean): boolean {
  return withBuiltIns && resolve(dir) !== resolve(builtInDir);
}

/** DIR's scenarios over the built-in ones: a built-in whose name DIR also defines is left out. */
export function overBuiltIns(builtIns: readonly Scenario[], own: readonly Scenario[]): ServedScenarios {
  const ownNames = new Set(own.map((scenario) => scenario.name));
  const builtInNames = new Set(builtIns.map((scenario) => scenario.name));
  const kept = builtIns.filter((scenario) => !ownNames.has(scenario.name));
  return { scenarios: [...kept, ...own], replacing: own.filter((scenario) => builtInNames.has(scenario.name)), fromDir: own.length, builtIn: kept.length };
}

export const replacingLine = (scenario: Scenario): string => `scenario '${scenario.name}' from ${scenario.source} replaces the built-in one`;

/** `2 from DIR and 5 built in; scenario 'slow' from DIR/slow.yaml replaces the built-in one`. */
export function servedSummary(served: ServedScenarios, dir: string, layered: boolean): string {
  const counts = `${served.fromDir} from ${dir}${layered ? ` and ${served.builtIn} built in` : ''}`;
  return [counts, ...served.replacing.map(replacingLine)].join('; ');
}
