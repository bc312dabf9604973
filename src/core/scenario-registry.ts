// The loaded scenarios (per process, replaced whole on a hot reload), over the ScenarioState that
// holds the global scenario, the scenarios set for one API key, and their `times` counters (in
// memory by default, or shared by every instance: src/core/traffic-state.ts). The global counters
// start over when the global scenario is set, a key's when its scenario is set, all of them
// when the data is reset, and a rule's own (global and every key's) when a reload changes it.
import { MAX_KEY_SCENARIOS, type ActiveNames, type RuleCounterStore, type ScenarioState } from './traffic-state.js';
import { MemoryScenarioState } from './memory-scenario-state.js';
import type { TimesLeft } from './scenario-uses.js';
import { andThen, type Awaitable } from './awaitable.js';
import { changedRules, type ChangedRule } from './changed-rules.js';
import { errors } from './errors.js';
import { guessAndKnown } from './nearest.js';
import type { Scenario } from './scenarios.js';

export { MemoryScenarioState } from './memory-scenario-state.js';

export interface ScenarioSummary {
  name: string;
  description: string;
  source: string;
  rules: number;
  active: boolean;
}

/** The scenario that shapes a request, and whose counters count its uses: the key's own when `key` is set, else the global ones. */
export interface ChosenScenario {
  scenario: Scenario;
  key?: string;
  /** Set with `times`: a request it shapes takes a use first (takeUse). */
  counted?: boolean;
}

/** A shared state's failure as a note for the log: a reload never rejects. */
function orSaying(note: Awaitable<string | undefined>, failed: string): Awaitable<string | undefined> {
  return note instanceof Promise ? note.catch((error: unknown) => `${failed}: ${(error as Error).message}`) : note;
}

const joinNotes = (...notes: Array<string | undefined>): string | undefined => notes.filter((note) => note !== undefined).join('; ') || undefined;

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
   * Swaps in a new set (hot reload) and starts over the `times` counters of the rules it changed
   * (src/core/changed-rules.ts). Resolves to what the log should say: the edited rules whose
   * counters start over, and a warning when the active scenario is gone (it is switched off);
   * never rejects, the new set is in place either way.
   */
  replace(scenarios: readonly Scenario[]): Awaitable<string | undefined> {
    const before = this.byName;
    this.byName = new Map(scenarios.map((scenario) => [scenario.name, scenario]));
    const restarted = this.restartChanged(changedRules(before, this.byName));
    const warning = andThen(this.state.activeName(), (gone) => {
      if (gone === null || this.byName.has(gone)) return undefined;
      return andThen(this.state.dropActive(gone), () => `the active scenario '${gone}' is no longer defined; no scenario is active now`);
    });
    const checked = orSaying(warning, 'could not check that the active scenario is still defined');
    if (!(restarted instanceof Promise) && !(checked instanceof Promise)) return joinNotes(restarted, checked);
    return Promise.all([restarted, checked]).then(([first, second]) => joinNotes(first, second));
  }

  private restartChanged(changed: readonly ChangedRule[]): Awaitable<string | undefined> {
    if (changed.length === 0) return undefined;
    const labels = changed.flatMap((rule) => (rule.label === undefined ? [] : [rule.label]));
    const note = labels.length === 0 ? undefined : `\`times\` start over for the edited rules: ${labels.join(', ')}`;
    return orSaying(andThen(this.state.restartRules(changed.map((rule) => rule.key)), () => note), "could not start the edited rules' `times` over");
  }

  /** The named scenario; an unknown name is a 400 that lists the known ones, never a fallback. */
  get(name: string, via: string): Scenario {
    const scenario = this.byName.get(name);
    if (!scenario) throw this.unknown(name, via);
    return scenario;
  }

  /** The refusal of a name not loaded, with the flags' guess at a near miss (`slo`: did you mean 'slow'?). */
  private unknown(name: string, via: string): Error {
    return errors.invalidRequest(`unknown scenario '${name}' in ${via}${guessAndKnown(name, this.names(), 'known scenarios')}`);
  }

  names(): string[] {
    return [...this.byName.keys()].sort();
  }

  /**
   * The scenario of a request whose headers name none: its key's own, else the global one (a
   * name this process has not loaded counts as none). One read of the state for both; `recall`
   * (a create's) lets shared state answer from memory (ScenarioState.activeNames).
   */
  activeFor(apiKey: string | undefined, recall = false): Awaitable<ChosenScenario | undefined> {
    if (apiKey === undefined || apiKey === '') return andThen(this.state.activeGlobal(), (names) => this.globalChoice(names));
    return andThen(this.state.activeNames(apiKey, recall), (names) => {
      const own = names.key === null ? undefined : this.byName.get(names.key);
      if (own) return names.keyCounted ? { scenario: own, key: apiKey, counted: true } : { scenario: own, key: apiKey };
      return this.globalChoice(names);
    });
  }

  private globalChoice(names: ActiveNames): ChosenScenario | undefined {
    const global = names.global === null ? undefined : this.byName.get(names.global);
    if (!global) return undefined;
    return names.globalCounted ? { scenario: global, counted: true } : { scenario: global };
  }

  /** Takes one use of a scenario set with `times` for the request it is about to shape; false: none left (answer normally). */
  takeUse(chosen: ChosenScenario): Awaitable<boolean> {
    return this.state.takeUse(chosen.key, chosen.scenario.name);
  }

  /** Uses left of the scenarios set with `times` that this process has loaded. */
  timesLeft(): Awaitable<TimesLeft> {
    return this.state.timesLeft();
  }

  /** The counters a chosen scenario's uses count against. */
  countersFor(chosen: ChosenScenario): RuleCounterStore {
    return chosen.key === undefined ? this.state.counters : this.state.countersOf(chosen.key);
  }

  /** Every key's own scenario that this process has loaded: key → name. */
  keyScenarios(): Awaitable<Record<string, string>> {
    return andThen(this.state.keyScenarios(), (byKey) => Object.fromEntries(Object.entries(byKey).filter(([, name]) => this.byName.has(name))));
  }

  /** Sets (or with null clears) the scenario of requests with this API key only. */
  setKeyScenario(apiKey: string, name: string | null, via: string, times?: number): Awaitable<void> {
    if (name !== null) this.get(name, via);
    return andThen(this.state.setKeyScenario(apiKey, name, times), (set) => {
      if (!set) throw errors.keyScenariosFull(MAX_KEY_SCENARIOS);
    });
  }

  /** Starts every `times` counter over, the global ones and every key's. */
  clearCounters(): Awaitable<void> {
    return this.state.clearCounters();
  }

  /** The global scenario, if it is one this process has loaded. */
  active(): Awaitable<Scenario | undefined> {
    return andThen(this.state.activeName(), (name) => (name === null ? undefined : this.byName.get(name)));
  }

  activeName(): Awaitable<string | null> {
    return andThen(this.active(), (scenario) => scenario?.name ?? null);
  }

  /** Sets (or with null clears) the global scenario. */
  setActive(name: string | null, via: string, times?: number): Awaitable<void> {
    if (name !== null) this.get(name, via);
    return this.state.setActive(name, times);
  }

  /** Every loaded scenario, marking the one named `active`. */
  list(active: string | null): ScenarioSummary[] {
    return this.names().map((name) => {
      const scenario = this.byName.get(name) as Scenario;
      return { name, description: scenario.description, source: scenario.source, rules: scenario.rules.length, active: name === active };
    });
  }
}
