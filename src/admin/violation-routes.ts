// Admin routes of the drift report: the distinct contract violations the validating proxy saw
// (src/core/violations.ts), and forgetting them to start a new run. The store may be shared by
// several instances (Redis): awaited.
import type { Router } from 'express';
import type { ViolationStore } from '../core/violations.js';

export interface ViolationDeps {
  violations: ViolationStore;
}

export function addViolationRoutes(router: Router, deps: ViolationDeps): void {
  router.get('/violations', async (_req, res) => {
    res.json(await deps.violations.report());
  });
  router.delete('/violations', async (_req, res) => {
    await deps.violations.clear();
    res.status(204).end();
  });
}
