// --watch: reload the scenario directory when a file in it changes. A broken edit keeps the last
// good set and says why; bursts of file events (editors write several) share one reload. The
// built-in scenarios under DIR's (scenario-layers.ts) were read at start and are kept as they are.
import { watch, type FSWatcher } from 'node:fs';
import type { ScenarioRegistry } from '../core/scenario-registry.js';
import type { Scenario } from '../core/scenarios.js';
import { overBuiltIns, servedSummary } from './scenario-layers.js';

/** How long a burst of file events settles before one reload (an editor's save is several). */
export const SETTLE_MS = 100;

/** `builtIns`: the layer under DIR's, or undefined when DIR is the only one. */
export function watchScenarios(dir: string, load: (dir: string) => Scenario[], registry: ScenarioRegistry, log: (line: string) => void, builtIns?: readonly Scenario[]): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  const reload = async (): Promise<void> => {
    timer = undefined;
    try {
      const served = overBuiltIns(builtIns ?? [], load(dir));
      const notes = await registry.replace(served.scenarios);
      log(`scenarios reloaded: ${servedSummary(served, dir, builtIns !== undefined)}${notes ? `; ${notes}` : ''}`);
    } catch (error) {
      log(`scenarios NOT reloaded, keeping the last good set: ${(error as Error).message}`);
    }
  };
  const watcher = watch(dir, () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void reload(), SETTLE_MS);
  });
  watcher.unref();
  return watcher;
}
