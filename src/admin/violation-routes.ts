// Admin routes of the drift report: the distinct contract violations the validating proxy saw
// (src/core/violations.ts), and forgetting them to start a new run. The store may be shared by
// several instances (Redis): awaited.
import type { Router } from 'express';
import type { ViolationSide, ViolationStore } from '../core/violations.js';

export interface ViolationDeps {
  violations: ViolationStore;
}

export function addViolationRoutes(router: Router, deps: ViolationDeps): void {
  router.get('/violations', async (req, res) => {
    // ?side= is one of the admin contract's values, or absent (both): its validator refuses the rest.
    res.json(await deps.violations.report(req.query['side'] as ViolationSide | undefined));
  });
  router.delete('/violations', async (_req, res) => {
    await deps.violations.clear();
    res.status(204).end();
  });
}
