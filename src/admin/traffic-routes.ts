// Admin routes about traffic: scenarios, the journal (and its live stream) and coverage.
import type { Router } from 'express';
import type { CoverageTracker } from '../core/coverage.js';
import type { Journal, JournalFilter } from '../core/journal.js';
import type { LinkService } from '../core/links.js';
import type { ScenarioRegistry } from '../core/scenario-registry.js';
import { streamJournal } from './journal-stream.js';

export interface TrafficDeps {
  service: LinkService;
  scenarios: ScenarioRegistry;
  journal: Journal;
  coverage: CoverageTracker;
}

export function addTrafficRoutes(router: Router, deps: TrafficDeps): void {
  router.get('/scenarios', (_req, res) => {
    res.json({ active: deps.scenarios.active()?.name ?? null, scenarios: deps.scenarios.list() });
  });
  router.put('/scenario', (req, res) => {
    deps.scenarios.setActive((req.body as { name: string | null }).name, 'the admin API');
    res.json({ active: deps.scenarios.active()?.name ?? null });
  });
  router.get('/requests', async (req, res) => {
    const filter = req.query as JournalFilter;
    // ?account= takes an API key or an account id: the key's account, if it names one.
    const account = filter.account === undefined ? undefined : await deps.service.store.accountByKey(filter.account);
    const entries = deps.journal.list(filter, () => account?.id);
    res.json({ size: deps.journal.size, entries });
  });
  router.delete('/requests', (_req, res) => {
    deps.journal.clear();
    res.status(204).end();
  });
  router.get('/requests/stream', (req, res) => streamJournal(deps.journal, req, res));
  router.get('/coverage', (req, res) => {
    const account = typeof req.query['account'] === 'string' ? req.query['account'] : undefined;
    res.json({ documented: deps.coverage.documentedOutcomes(), accounts: deps.coverage.report(account) });
  });
  router.delete('/coverage', (_req, res) => {
    deps.coverage.clear();
    res.status(204).end();
  });
}
