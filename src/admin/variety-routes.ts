// Admin routes of variety mode (src/variety/): turn it on or off, globally or per API key, see
// what is on, and list the dimensions. The admin contract has checked each body's shape.
import type { Router } from 'express';
import { errors } from '../core/errors.js';
import type { VarietySettings } from '../variety/plan.js';
import type { VarietySwitch } from '../variety/switch.js';

export interface VarietyDeps {
  variety: VarietySwitch;
  /** Proxy mode: the answers are the upstream's, so variety is not switched on (a 400 says why). */
  varietyRefused?: string;
}

export function addVarietyRoutes(router: Router, deps: VarietyDeps): void {
  router.get('/variety', async (_req, res) => {
    res.json(await deps.variety.overview());
  });
  router.put('/variety', async (req, res) => {
    if (deps.varietyRefused) throw errors.invalidRequest(deps.varietyRefused);
    res.json(await deps.variety.set(req.body as VarietySettings & { apiKey?: string }));
  });
  router.delete('/variety', async (req, res) => {
    const apiKey = req.query['apiKey'];
    await deps.variety.clear(typeof apiKey === 'string' ? apiKey : undefined);
    res.status(204).end();
  });
  router.get('/variety/dimensions', (_req, res) => {
    res.json({ dimensions: deps.variety.catalogue.map(({ name, description }) => ({ name, description })), notVaried: deps.variety.notVaried });
  });
}
