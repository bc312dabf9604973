// --watch: reload the scenario directory when a file in it changes. A broken edit keeps the last
// good set and says why; bursts of file events (editors write several) share one reload.
import { watch, type FSWatcher } from 'node:fs';
import type { ScenarioRegistry } from '../core/scenario-registry.js';
import type { Scenario } from '../core/scenarios.js';

const SETTLE_MS = 100;

export function watchScenarios(dir: string, load: (dir: string) => Scenario[], registry: ScenarioRegistry, log: (line: string) => void): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  const reload = async (): Promise<void> => {
    timer = undefined;
    try {
      const scenarios = load(dir);
      const warning = await registry.replace(scenarios);
      log(`scenarios reloaded: ${scenarios.length} from ${dir}${warning ? `; ${warning}` : ''}`);
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
