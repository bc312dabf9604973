// The loaded scenarios, the globally active one, and the `times` counters. Replaced whole on a
// hot reload; the counters start over whenever the global scenario is set or the data is reset.
import { errors } from './errors.js';
import { RuleCounters, type Scenario } from './scenarios.js';

export interface ScenarioSummary {
  name: string;
  description: string;
  source: string;
  rules: number;
  active: boolean;
}

export class ScenarioRegistry {
  readonly counters = new RuleCounters();
  private byName = new Map<string, Scenario>();
  private activeName: string | undefined;

  constructor(scenarios: readonly Scenario[]) {
    this.replace(scenarios);
  }

  /** Swaps in a new set (hot reload). Returns a warning when the active scenario is gone. */
  replace(scenarios: readonly Scenario[]): string | undefined {
    this.byName = new Map(scenarios.map((scenario) => [scenario.name, scenario]));
    if (this.activeName === undefined || this.byName.has(this.activeName)) return undefined;
    const gone = this.activeName;
    this.activeName = undefined;
    return `the active scenario '${gone}' is no longer defined; no scenario is active now`;
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

  active(): Scenario | undefined {
    return this.activeName === undefined ? undefined : this.byName.get(this.activeName);
  }

  /** Sets (or with null clears) the global scenario. */
  setActive(name: string | null, via: string): void {
    if (name !== null) this.get(name, via);
    this.activeName = name ?? undefined;
    this.counters.clear();
  }

  list(): ScenarioSummary[] {
    return this.names().map((name) => {
      const scenario = this.byName.get(name) as Scenario;
      return { name, description: scenario.description, source: scenario.source, rules: scenario.rules.length, active: name === this.activeName };
    });
  }
}
