// Admin routes about traffic: scenarios (global and per API key), the journal (and its live stream) and coverage. Every
// read and change goes to the traffic state, which may be shared by several instances: awaited.
import type { Router } from 'express';
import type { CoverageTracker } from '../core/coverage.js';
import type { JournalFilter } from '../core/journal.js';
import type { LinkService } from '../core/links.js';
import type { ScenarioRegistry } from '../core/scenario-registry.js';
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
    res.json(await activeScenarios(deps.scenarios));
  });
  router.put('/scenario', async (req, res) => {
    // With apiKey: that key's own scenario (and counters); the global one is left as it is.
    const { name, apiKey } = req.body as { name: string | null; apiKey?: string };
    if (apiKey === undefined) {
      await deps.scenarios.setActive(name, 'the admin API');
      res.json({ active: name });
      return;
    }
    await deps.scenarios.setKeyScenario(apiKey, name, 'the admin API');
    res.json({ active: name, apiKey });
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

async function activeScenarios(scenarios: ScenarioRegistry): Promise<{ active: string | null; byKey: Record<string, string> }> {
  const [active, byKey] = await Promise.all([scenarios.activeName(), scenarios.keyScenarios()]);
  return { active, byKey };
}
