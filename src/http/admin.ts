// The admin API under /__admin: outside the contract, JSON, errors as Error objects. Health,
// reset, and the global scenario.
import express, { type Router } from 'express';
import { errors } from '../core/errors.js';
import type { LinkService } from '../core/links.js';
import type { ScenarioRegistry } from '../core/scenario-registry.js';

export interface AdminDeps {
  service: LinkService;
  scenarios: ScenarioRegistry;
  /** Puts the seeded fixtures back (POST /__admin/reset). */
  reset: () => Promise<void>;
  version: string;
  startedAt: Date;
}

export function adminRouter(deps: AdminDeps): Router {
  const router = express.Router();
  router.use(express.json({ limit: '64kb' }));
  router.get('/health', (_req, res) => {
    res.json({
      status: 'ok',
      version: deps.version,
      uptimeSeconds: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
      ...counts(deps.service),
      scenario: deps.scenarios.active()?.name ?? null,
    });
  });
  router.post('/reset', async (_req, res) => {
    await deps.reset();
    deps.scenarios.counters.clear();
    res.json({ status: 'reset', ...counts(deps.service) });
  });
  router.get('/scenarios', (_req, res) => {
    res.json({ active: deps.scenarios.active()?.name ?? null, scenarios: deps.scenarios.list() });
  });
  router.put('/scenario', (req, res) => {
    const name = (req.body as { name?: unknown } | undefined)?.name;
    if (name !== null && typeof name !== 'string') {
      throw errors.invalidRequest('the body must be {"name": "<scenario>"} or {"name": null}');
    }
    deps.scenarios.setActive(name, 'the admin API');
    res.json({ active: deps.scenarios.active()?.name ?? null });
  });
  return router;
}

function counts(service: LinkService): { accounts: number; links: number } {
  const state = service.state;
  return { accounts: state.accounts().length, links: Object.keys(state.data.links).length };
}
