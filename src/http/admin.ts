// The admin API under /__admin: outside the contract, JSON. This part: health and reset.
import express, { type Router } from 'express';
import type { LinkService } from '../core/links.js';

export interface AdminDeps {
  service: LinkService;
  /** Puts the seeded fixtures back (POST /__admin/reset). */
  reset: () => Promise<void>;
  version: string;
  startedAt: Date;
}

export function adminRouter(deps: AdminDeps): Router {
  const router = express.Router();
  router.get('/health', (_req, res) => {
    const state = deps.service.state;
    res.json({
      status: 'ok',
      version: deps.version,
      uptimeSeconds: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
      accounts: state.accounts().length,
      links: Object.keys(state.data.links).length,
    });
  });
  router.post('/reset', async (_req, res) => {
    await deps.reset();
    const state = deps.service.state;
    res.json({ status: 'reset', accounts: state.accounts().length, links: Object.keys(state.data.links).length });
  });
  return router;
}
