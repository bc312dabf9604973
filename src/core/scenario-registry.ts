// The loaded scenarios (per process, replaced whole on a hot reload), over the ScenarioState that
// holds the globally active one and the `times` counters (in memory by default, or shared by every
// instance: src/store/traffic-state.ts). The counters start over whenever the global scenario is
// set or the data is reset.
import type { RuleCounterStore, ScenarioState } from '../store/traffic-state.js';
import { andThen, type Awaitable } from './awaitable.js';
import { errors } from './errors.js';
import { RuleCounters, type Scenario } from './scenarios.js';

export interface ScenarioSummary {
  name: string;
  description: string;
  source: string;
  rules: number;
  active: boolean;
}

/** The in-memory ScenarioState: this process's global scenario and counters. */
export class MemoryScenarioState implements ScenarioState {
  readonly counters = new RuleCounters();
  private name: string | null = null;

  activeName(): string | null {
    return this.name;
  }

  setActive(name: string | null): void {
    this.name = name;
    this.counters.clear();
  }

  dropActive(name: string): void {
    if (this.name === name) this.name = null;
  }
}

export class ScenarioRegistry {
  private byName = new Map<string, Scenario>();

  constructor(
    scenarios: readonly Scenario[],
    private readonly state: ScenarioState = new MemoryScenarioState(),
  ) {
    this.byName = new Map(scenarios.map((scenario) => [scenario.name, scenario]));
  }

  get counters(): RuleCounterStore {
    return this.state.counters;
  }

  /**
   * Swaps in a new set (hot reload). Resolves to a warning when the active scenario is gone (it is
   * switched off) or could not be checked; never rejects, the new set is in place either way.
   */
  replace(scenarios: readonly Scenario[]): Awaitable<string | undefined> {
    this.byName = new Map(scenarios.map((scenario) => [scenario.name, scenario]));
    const warning = andThen(this.state.activeName(), (gone) => {
      if (gone === null || this.byName.has(gone)) return undefined;
      return andThen(this.state.dropActive(gone), () => `the active scenario '${gone}' is no longer defined; no scenario is active now`);
    });
    if (!(warning instanceof Promise)) return warning;
    return warning.catch((error: unknown) => `could not check that the active scenario is still defined: ${(error as Error).message}`);
  }

  /** The named scenario; an unknown name is a 400 that lists the known ones, never a fallback. */
  get(name: string, via: string): Scenario {
    const scenario = this.byName.get(name);
    if (!scenario) throw errors.invalidRequest(`unknown scenario '${name}' in ${via}; known scenarios: ${this.names().join(', ') || 'none'}`);
    return scenario;
  }

  names(): string[] {
    return [...this.byName.keys()].sort();
  }

  /** The global scenario, if it is one this process has loaded. */
  active(): Awaitable<Scenario | undefined> {
    return andThen(this.state.activeName(), (name) => (name === null ? undefined : this.byName.get(name)));
  }

  activeName(): Awaitable<string | null> {
    return andThen(this.active(), (scenario) => scenario?.name ?? null);
  }

  /** Sets (or with null clears) the global scenario. */
  setActive(name: string | null, via: string): Awaitable<void> {
    if (name !== null) this.get(name, via);
    return this.state.setActive(name);
  }

  /** Every loaded scenario, marking the one named `active`. */
  list(active: string | null): ScenarioSummary[] {
    return this.names().map((name) => {
      const scenario = this.byName.get(name) as Scenario;
      return { name, description: scenario.description, source: scenario.source, rules: scenario.rules.length, active: name === active };
    });
  }
}
