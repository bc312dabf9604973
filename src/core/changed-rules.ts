// What a reload (--watch) changed, for the `times` counters: a rule is known by its scenario's
// name and its place in it (ruleKey), so a rule whose place now holds other content (edited,
// removed, or moved by an insertion above it) must count afresh, while a rule whose content is
// what it was keeps its count: an edit to one rule never re-arms the others of a test run.
import { ruleKey, type Scenario, type ScenarioRule } from './scenarios.js';

export interface ChangedRule {
  /** Its counter's key: `<scenario>#<index>`. */
  key: string;
  /** For the log, as load errors name rules: `'first' rule 1`; absent when the rule is gone. */
  label?: string;
}

/** The counted places (a rule with `times` before the reload) whose content the reload changed. */
export function changedRules(before: ReadonlyMap<string, Scenario>, after: ReadonlyMap<string, Scenario>): ChangedRule[] {
  const changed: ChangedRule[] = [];
  for (const [name, old] of before) {
    const now = after.get(name);
    old.rules.forEach((rule, index) => {
      const next = now?.rules[index];
      // Only a rule with `times` has a count to start over; the content as loaded decides.
      if (rule.times === undefined || sameRule(rule, next)) return;
      changed.push({ key: ruleKey(old, index), ...(next ? { label: `'${name}' rule ${index + 1}` } : {}) });
    });
  }
  return changed;
}

function sameRule(a: ScenarioRule, b: ScenarioRule | undefined): boolean {
  // Rules are plain data built by one parser in one key order: their JSON is their content.
  return b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
