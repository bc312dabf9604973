// Admin routes about traffic: scenarios (global and per API key), the journal (and its live stream) and coverage. Every
// read and change goes to the traffic state, which may be shared by several instances: awaited.
import type { Router } from 'express';
import type { CoverageTracker } from '../core/coverage.js';
import type { JournalFilter } from '../core/journal.js';
import type { LinkService } from '../core/links.js';
import { errors } from '../core/errors.js';
import type { ScenarioRegistry } from '../core/scenario-registry.js';
import type { TimesLeft } from '../core/scenario-uses.js';
import type { JournalStore } from '../core/traffic-state.js';
import { StreamBudget, streamJournal } from './journal-stream.js';

export interface TrafficDeps {
  service: LinkService;
  scenarios: ScenarioRegistry;
  journal: JournalStore;
  coverage: CoverageTracker;
}

export function addTrafficRoutes(router: Router, deps: TrafficDeps): void {
  router.get('/scenarios', async (_req, res) => {
    const { active, byKey } = await activeScenarios(deps.scenarios);
    res.json({ active, byKey, scenarios: deps.scenarios.list(active) });
  });
  router.get('/scenario', async (_req, res) => {
    const [shown, left] = await Promise.all([activeScenarios(deps.scenarios), deps.scenarios.timesLeft()]);
    res.json({ ...shown, ...timesLeftOf(shown, left) });
  });
  router.put('/scenario', async (req, res) => {
    // With apiKey: that key's own scenario (and counters); the global one is left as it is.
    // `times` (1 to MAX_SCENARIO_TIMES, checked by the admin contract): it clears itself after that many uses.
    const { name, apiKey, times } = req.body as { name: string | null; apiKey?: string; times?: number };
    if (times !== undefined && name === null) throw errors.invalidRequest("request body: 'times' counts the uses of a scenario being set; clearing one (name null) takes no times");
    const left = times === undefined ? {} : { timesLeft: times };
    if (apiKey === undefined) {
      await deps.scenarios.setActive(name, 'the admin API', times);
      res.json({ active: name, ...left });
      return;
    }
    await deps.scenarios.setKeyScenario(apiKey, name, 'the admin API', times);
    res.json({ active: name, apiKey, ...left });
  });
  router.get('/requests', async (req, res) => {
    const filter = req.query as JournalFilter;
    // ?account= takes an API key or an account id: the key's account, if it names one.
    const account = filter.account === undefined ? undefined : await deps.service.store.accountByKey(filter.account);
    const entries = await deps.journal.list(filter, () => account?.id);
    res.json({ size: deps.journal.size, entries });
  });
  router.delete('/requests', async (_req, res) => {
    await deps.journal.clear();
    res.status(204).end();
  });
  // One budget for every stream of this mock: the total they buffer is bounded, not only each one.
  const streams = new StreamBudget();
  router.get('/requests/stream', (req, res) => streamJournal(deps.journal, req, res, streams));
  router.get('/coverage', async (req, res) => {
    const account = typeof req.query['account'] === 'string' ? req.query['account'] : undefined;
    res.json({ documented: deps.coverage.documentedOutcomes(), accounts: await deps.coverage.report(account) });
  });
  router.delete('/coverage', async (_req, res) => {
    await deps.coverage.clear();
    res.status(204).end();
  });
}

/** The uses left of the scenarios shown (a count whose scenario this process has not loaded is left out); nothing when none has one. */
function timesLeftOf(shown: { active: string | null; byKey: Record<string, string> }, left: TimesLeft): { timesLeft?: TimesLeft } {
  const byKey = Object.fromEntries(Object.entries(left.byKey).filter(([key]) => Object.hasOwn(shown.byKey, key)));
  const global = shown.active === null ? undefined : left.global;
  if (global === undefined && Object.keys(byKey).length === 0) return {};
  return { timesLeft: { ...(global === undefined ? {} : { global }), byKey } };
}

async function activeScenarios(scenarios: ScenarioRegistry): Promise<{ active: string | null; byKey: Record<string, string> }> {
  const [active, byKey] = await Promise.all([scenarios.activeName(), scenarios.keyScenarios()]);
  return { active, byKey };
}
