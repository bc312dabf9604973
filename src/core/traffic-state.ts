// The mock's traffic state behind one interface, in four parts: the request journal (with its
// live feed), the coverage counters, the global and per-key scenarios with their `times`
// counters, and the proxy's distinct violations (src/core/violations.ts). The loaded scenarios
// themselves stay per process (read from files); everything here is what the instances of one
// mock must share (D21). Two implementations: in memory (the default, for the file store and
// :memory:; src/core/journal.ts, src/core/coverage-counts.ts, src/core/scenario-registry.ts,
// src/core/violations.ts) and on Redis (src/store/redis-traffic.ts).
//
// Recording (journal entries, coverage counts, violations) never fails and never waits: a store
// that cannot take it drops it. Reads return at once in memory and after a round trip on Redis
// (Awaitable), so the hot path of a memory mock stays synchronous.
import type { Awaitable } from './awaitable.js';
import type { JournalStore } from './journal-types.js';
import type { RuleCounterStore } from './scenarios.js';
import type { TimesLeft } from './scenario-uses.js';
import type { ViolationStore } from './violations.js';
import type { SharedVarietySettings } from './variety-settings.js';

// The ports declared beside the code that needs them, named here too for the stores.
export type { JournalEvents, JournalStore } from './journal-types.js';
export type { RuleCounterStore } from './scenarios.js';

/** Who a coverage count is for: a key that names an account, or the group of requests that cannot have one. */
export type CoverageCaller = { apiKey: string; accountId: string } | { group: 'withoutKey' | 'unknownKey' };

export interface KeyCounts {
  apiKey: string;
  /** The account the key named when first counted. */
  accountId: string;
  /** Outcome key (src/core/coverage.ts) → how often. */
  counts: ReadonlyMap<string, number>;
}

export interface CoverageCounts {
  /** In the order the keys were first counted. */
  keys: KeyCounts[];
  /** Requests without a key or with a key that names no account, counted together. */
  group: { counts: ReadonlyMap<string, number>; withoutKey: number; unknownKey: number };
}

/** Counters only: which outcomes are documented and how they are reported is the core's (CoverageTracker). */
export interface CoverageCountStore {
  /** Counts one outcome: never throws, never waits. Keys past MAX_TRACKED_KEYS are not counted. */
  count(caller: CoverageCaller, outcome: string): void;
  /** Everything, or with `onlyKey` just that key (and an empty group). */
  read(onlyKey?: string): Awaitable<CoverageCounts>;
  clear(): Awaitable<void>;
}

/** The names that may shape a request with an API key: the key's own scenario and the global one. */
export interface ActiveNames {
  global: string | null;
  key: string | null;
  /** The global scenario was set with `times`: a request it shapes takes a use (src/core/scenario-uses.ts). */
  globalCounted: boolean;
  /** The key's own scenario was set with `times`. */
  keyCounted: boolean;
}

/**
 * How many API keys may have a scenario of their own at once (PUT /__admin/scenario with `apiKey`).
 * Each is a name in the state, shown by GET /__admin/scenario(s) and kept through a reset: unbounded,
 * 7,000 keys of 150 characters grew those answers past 1 MB. The same bound as variety's per-key
 * settings (MAX_KEY_SETTINGS): a suite per key, a thousand suites at once.
 */
export const MAX_KEY_SCENARIOS = 1_000;

/**
 * The global scenario with its `times` counters, and the scenarios set for one API key with
 * counters of their own (PUT /__admin/scenario with `apiKey`), so that test suites with their own
 * keys never see each other's scenario or use up each other's `times`.
 */
export interface ScenarioState {
  /** The global scenario's name, null when none. */
  activeName(): Awaitable<string | null>;
  /**
   * The global scenario and the key's own, in one read (one round trip when shared): read for every
   * request with a key. `recall`: a create's, which may be answered from what the shared state
   * remembers and checks in the create's own write (redis-remembered-accounts.ts).
   */
  activeNames(apiKey: string, recall?: boolean): Awaitable<ActiveNames>;
  /** The global scenario alone (key: null), for a request without a key. */
  activeGlobal(): Awaitable<ActiveNames>;
  /**
   * Sets (null: clears) the global scenario and starts the global counters over, in one step; key
   * scenarios stay. `times`: it clears itself after that many uses (takeUse).
   */
  setActive(name: string | null, times?: number): Awaitable<void>;
  /**
   * Sets (null: clears) the key's own scenario and starts the key's counters over, in one step;
   * `times` as for setActive. False, and nothing changed, when the key has none and
   * MAX_KEY_SCENARIOS keys have one already (checked in the same step).
   */
  setKeyScenario(apiKey: string, name: string | null, times?: number): Awaitable<boolean>;
  /**
   * Takes one use of the global scenario (no key) or of the key's own, if it is still `name`; the
   * last use clears it, as setting null would, in the same step. True: the request may be shaped
   * (a use was taken, or the scenario has no count); false: it is gone, or another one is set.
   * Atomic across instances: N racing requests take at most N uses.
   */
  takeUse(apiKey: string | undefined, name: string): Awaitable<boolean>;
  /** Uses left of the scenarios set with `times`. */
  timesLeft(): Awaitable<TimesLeft>;
  /** Every key's own scenario: key → name. */
  keyScenarios(): Awaitable<Record<string, string>>;
  /** Clears the global scenario if it is still `name` (a reload lost it); the counters stay. */
  dropActive(name: string): Awaitable<void>;
  /** The counters of the global scenario, and of a scenario a request names itself (x-mock-scenario). */
  readonly counters: RuleCounterStore;
  /** The counters of the key's own scenario. */
  countersOf(apiKey: string): RuleCounterStore;
  /** Starts every counter over, the global ones and every key's (a reset or restore when the store's replace does not). */
  clearCounters(): Awaitable<void>;
  /** Starts these rules' counters over (keys from ruleKey), the global ones and every key's: a reload changed the rules. */
  restartRules(keys: readonly string[]): Awaitable<void>;
}

export interface TrafficState {
  readonly journal: JournalStore;
  readonly coverage: CoverageCountStore;
  readonly scenario: ScenarioState;
  /** The distinct contract violations the validating proxy saw (the drift report): recorded like coverage. */
  readonly violations: ViolationStore;
  /** Variety mode's settings when shared by instances (Redis); absent: this process's own (src/variety/switch.ts). */
  readonly variety?: SharedVarietySettings;
  /** Resolves once every entry and count recorded so far is stored (or dropped, Redis being away). */
  flush(): Promise<void>;
  /** Flushes, then releases what the state opened itself (never a client given in). */
  close(): Promise<void>;
}
