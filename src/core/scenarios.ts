// Scenarios as data, and the pure decision of what a scenario does to one request. Loading and
// checking files against the contract lives in src/scenarios/; applying a decision to a socket
// lives in src/http/. Nothing here knows of either.
import type { ErrorBody } from './api-types.js';
import { andThen, type Awaitable } from './awaitable.js';
import type { RandomInt } from './random.js';

export type Fault = 'connection-reset' | 'empty-response' | 'no-response';
export const FAULTS: readonly Fault[] = ['connection-reset', 'empty-response', 'no-response'];

export interface ForcedResponse {
  status: number;
  body: ErrorBody;
}

export interface DelayRange {
  minMs: number;
  maxMs: number;
}

export interface RuleMatch {
  /** operationIds, or '*' for every operation. */
  operations: readonly string[] | '*';
  /** Lower-case header names → exact values. */
  headers?: Readonly<Record<string, string>>;
  /** Top-level body fields → exact values. */
  body?: Readonly<Record<string, unknown>>;
  /** The API key of the account. */
  account?: string;
}

export interface ScenarioRule {
  match: RuleMatch;
  respond?: ForcedResponse;
  fault?: Fault;
  delay?: DelayRange;
  times?: number;
}

export interface Scenario {
  name: string;
  description: string;
  /** Where it came from, for messages: a file path or 'Prefer header'. */
  source: string;
  rules: readonly ScenarioRule[];
}

export interface RequestFacts {
  operationId: string;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: unknown;
  apiKey?: string;
}

export type Outcome =
  | { kind: 'pass'; delayMs: number }
  | { kind: 'respond'; delayMs: number; response: ForcedResponse }
  | { kind: 'fault'; delayMs: number; fault: Fault };

const PASS: Outcome = { kind: 'pass', delayMs: 0 };

/** What a rule's uses are counted under: its scenario's name and its place in it. */
export const ruleKey = (scenario: Scenario, index: number): string => `${scenario.name}#${index}`;

/** How often each rule of each scenario has applied, for `times`. Rules without `times` are never counted. */
export interface RuleCounterStore {
  hasUses(scenario: Scenario, index: number, rule: ScenarioRule): Awaitable<boolean>;
  /** Counts one use, and says whether it is within `times`: increment first, then compare, so racing instances never over-fire. */
  take(scenario: Scenario, index: number, rule: ScenarioRule): Awaitable<boolean>;
  clear(): Awaitable<void>;
}

/** How often each rule of each scenario has applied, for `times`: the in-memory RuleCounterStore. */
export class RuleCounters implements RuleCounterStore {
  private readonly counts = new Map<string, number>();

  hasUses(scenario: Scenario, index: number, rule: ScenarioRule): boolean {
    return rule.times === undefined || (this.counts.get(ruleKey(scenario, index)) ?? 0) < rule.times;
  }

  /** Counts one use of the rule; false when the rule has used up its `times`. */
  take(scenario: Scenario, index: number, rule: ScenarioRule): boolean {
    if (!this.hasUses(scenario, index, rule)) return false;
    const key = ruleKey(scenario, index);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return true;
  }

  clear(): void {
    this.counts.clear();
  }

  /** Starts these rules' counts over (keys from ruleKey): a reload changed them. */
  forget(keys: readonly string[]): void {
    for (const key of keys) this.counts.delete(key);
  }
}

export type RulePhase = 'before-validation' | 'after-validation';

/**
 * The first matching rule with uses left decides; no rule means the normal answer. A forced 401
 * stands for a failed authentication, which comes before request validation (D14), so the
 * request is looked at twice: before validation, only a winning 401 rule applies (a rule that
 * needs the body defers the whole decision); after validation, every rule can.
 *
 * Synchronous over counters that answer at once (memory); over shared counters (Redis) it goes
 * on from the rule it asked about once they answer.
 */
export function decide(scenario: Scenario, facts: RequestFacts, counters: RuleCounterStore, random: RandomInt, phase: RulePhase = 'after-validation'): Awaitable<Outcome> {
  const from = (start: number): Awaitable<Outcome> => {
    for (let index = start; index < scenario.rules.length; index++) {
      const rule = scenario.rules[index] as ScenarioRule;
      if (phase === 'before-validation' && rule.match.body !== undefined) return PASS;
      if (!matches(rule.match, facts)) continue;
      const next = (): Awaitable<Outcome> => from(index + 1);
      const use = (): Awaitable<Outcome> => andThen(counters.take(scenario, index, rule), (taken) => (taken ? outcomeOf(rule, random) : next()));
      if (phase === 'after-validation') return use();
      // Before validation a rule with uses left decides: its 401 applies now, anything else waits.
      return andThen(counters.hasUses(scenario, index, rule), (has) => (!has ? next() : rule.respond?.status === 401 ? use() : PASS));
    }
    return PASS;
  };
  return from(0);
}

function outcomeOf(rule: ScenarioRule, random: RandomInt): Outcome {
  const delayMs = rule.delay ? pickDelay(rule.delay, random) : 0;
  if (rule.respond) return { kind: 'respond', delayMs, response: rule.respond };
  if (rule.fault) return { kind: 'fault', delayMs, fault: rule.fault };
  return { kind: 'pass', delayMs };
}

export function matches(match: RuleMatch, facts: RequestFacts): boolean {
  if (match.operations !== '*' && !match.operations.includes(facts.operationId)) return false;
  if (match.account !== undefined && match.account !== facts.apiKey) return false;
  for (const [name, value] of Object.entries(match.headers ?? {})) {
    if (headerValue(facts.headers[name]) !== value) return false;
  }
  if (match.body) {
    const body = facts.body;
    if (!body || typeof body !== 'object') return false;
    for (const [field, value] of Object.entries(match.body)) {
      // The client's own fields only: an absent `__proto__` would read as Object.prototype, `{}`.
      const sent = Object.hasOwn(body, field) ? (body as Record<string, unknown>)[field] : undefined;
      if (!deepEqual(sent, value)) return false;
    }
  }
  return true;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function pickDelay(range: DelayRange, random: RandomInt): number {
  return range.minMs + (range.maxMs > range.minMs ? random(range.maxMs - range.minMs + 1) : 0);
}
