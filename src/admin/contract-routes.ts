// GET /__admin/contract: how the contract is served (D32), as decided at start
// (src/core/contract-classes.ts): each operation rule, store, generated or gone, and each field FILE
// adds or removes by its JSON pointer.
import type { Router } from 'express';
import type { ContractClasses } from '../core/contract-classes.js';

export interface ServedContract extends ContractClasses {
  /** FILE as given (--contract); null for the shipped openapi.yaml. */
  file: string | null;
  version: string;
}

export interface ContractDeps {
  servedContract: ServedContract;
}

export function addContractRoutes(router: Router, deps: ContractDeps): void {
  router.get('/contract', (_req, res) => {
    res.json(deps.servedContract);
  });
}
