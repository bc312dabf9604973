// POST /__admin/provider-states: the Pact Verifier's state change URL (providerStatesSetupUrl). It
// posts {state, params, action} before each interaction (action 'setup') and after it
// ('teardown'); older verifiers send the names in `states`. The body was checked against the admin
// contract already; the state itself is the core's (src/core/provider-states.ts).
import type { Router } from 'express';
import type { LinkService } from '../core/links.js';
import type { SeedAccount } from '../core/new-account.js';
import { setUpProviderStates, type StateParams } from '../core/provider-states.js';
import { cryptoRandomInt, type RandomInt } from '../core/random.js';

export interface ProviderStateRouteDeps {
  service: LinkService;
  seedAccount: SeedAccount;
  /** Ids and slugs of links a state makes (default: crypto). */
  random?: RandomInt;
}

interface StateChange {
  state?: string;
  states?: string[];
  params?: StateParams;
  action?: 'setup' | 'teardown';
}

export function addProviderStateRoutes(router: Router, deps: ProviderStateRouteDeps): void {
  const stateDeps = { service: deps.service, seedAccount: deps.seedAccount, random: deps.random ?? cryptoRandomInt };
  router.post('/provider-states', async (req, res) => {
    const change = req.body as StateChange;
    const action = change.action ?? 'setup';
    // An empty name is an interaction without a state: nothing to set up.
    const names = (change.state === undefined ? (change.states ?? []) : [change.state]).filter((name) => name !== '');
    // Teardown has nothing to undo: each setup makes its state true whatever came before.
    if (action === 'setup') await setUpProviderStates(stateDeps, names, change.params ?? {});
    res.json({ action, states: names });
  });
}
