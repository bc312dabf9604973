// The in-memory ScenarioState (src/core/traffic-state.ts): this process's global scenario, the
// scenarios set for one API key, their `times` counters and the uses left of a scenario set with
// `times` (src/core/scenario-uses.ts), all read at once (no promise per request).
import { MAX_KEY_SCENARIOS, type ActiveNames, type ScenarioState } from './traffic-state.js';
import type { TimesLeft } from './scenario-uses.js';
import { RuleCounters } from './scenarios.js';

export class MemoryScenarioState implements ScenarioState {
  readonly counters = new RuleCounters();
  private name: string | null = null;
  /** Uses left of the global scenario; undefined: it has no count. */
  private left: number | undefined;
  private readonly byKey = new Map<string, string>();
  private readonly leftByKey = new Map<string, number>();
  private readonly countersByKey = new Map<string, RuleCounters>();
  /** What every key reads while no key has a scenario: no object made per request. */
  private globalOnly: ActiveNames = { global: null, key: null, globalCounted: false, keyCounted: false };

  activeName(): string | null {
    return this.name;
  }

  activeNames(apiKey: string): ActiveNames {
    if (this.byKey.size === 0) return this.globalOnly;
    return { global: this.name, key: this.byKey.get(apiKey) ?? null, globalCounted: this.left !== undefined, keyCounted: this.leftByKey.has(apiKey) };
  }

  activeGlobal(): ActiveNames {
    return this.globalOnly;
  }

  setActive(name: string | null, times?: number): void {
    this.name = name;
    this.left = name === null ? undefined : times;
    this.globalOnly = { global: name, key: null, globalCounted: this.left !== undefined, keyCounted: false };
    this.counters.clear();
  }

  setKeyScenario(apiKey: string, name: string | null, times?: number): boolean {
    if (name !== null && !this.byKey.has(apiKey) && this.byKey.size >= MAX_KEY_SCENARIOS) return false;
    if (name === null) this.byKey.delete(apiKey);
    else this.byKey.set(apiKey, name);
    if (name === null || times === undefined) this.leftByKey.delete(apiKey);
    else this.leftByKey.set(apiKey, times);
    this.countersByKey.delete(apiKey);
    return true;
  }

  takeUse(apiKey: string | undefined, name: string): boolean {
    if (apiKey === undefined) {
      if (this.name !== name) return false;
      if (this.left === undefined) return true;
      if (this.left <= 1) this.setActive(null);
      else this.left -= 1;
      return true;
    }
    if (this.byKey.get(apiKey) !== name) return false;
    const left = this.leftByKey.get(apiKey);
    if (left === undefined) return true;
    if (left <= 1) this.setKeyScenario(apiKey, null);
    else this.leftByKey.set(apiKey, left - 1);
    return true;
  }

  timesLeft(): TimesLeft {
    return { ...(this.left === undefined ? {} : { global: this.left }), byKey: Object.fromEntries(this.leftByKey) };
  }

  keyScenarios(): Record<string, string> {
    return Object.fromEntries(this.byKey);
  }

  dropActive(name: string): void {
    if (this.name !== name) return;
    this.name = null;
    this.left = undefined;
    this.globalOnly = { global: null, key: null, globalCounted: false, keyCounted: false };
  }

  countersOf(apiKey: string): RuleCounters {
    let counters = this.countersByKey.get(apiKey);
    if (!counters) this.countersByKey.set(apiKey, (counters = new RuleCounters()));
    return counters;
  }

  clearCounters(): void {
    this.counters.clear();
    this.countersByKey.clear();
  }

  restartRules(keys: readonly string[]): void {
    this.counters.forget(keys);
    for (const counters of this.countersByKey.values()) counters.forget(keys);
  }
}
