// A scenario set for a number of uses (PUT /__admin/scenario with `times`, issue 41): it shapes the
// next N requests it actually shapes (a forced answer, a fault or a delay) and then clears itself,
// globally or for one key. A request the scenario lets through untouched uses nothing, and so does
// one that names a scenario itself (x-mock-scenario, Prefer: code=). A use is taken after the
// scenario decided to shape the request: when the last one went to another request meanwhile (on
// another instance, say), this request is answered normally. Distinct from a rule's own `times`
// (src/core/scenarios.ts), which counts how often one rule fires and never clears the scenario.

/** The most uses one setting takes; src/admin/openapi.yaml's `maximum` for `times` says the same (test/scenarios/activation-times.test.ts checks). */
export const MAX_SCENARIO_TIMES = 1_000_000;

/** Uses left of the scenarios set with `times`: the global one's (absent: none set, or set without a count) and each key's. */
export interface TimesLeft {
  global?: number;
  byKey: Record<string, number>;
}
