// D35: GET /__admin/ready, the probe's question (can this mock serve now?) answered without the
// admin token and without any data: 200 or 503 and an empty body, so an orchestrator's httpGet probe
// needs no secret and a stranger who can reach the port learns nothing but up or down. Mounted
// before the token guard and after the Host guard (app.ts): a token-less mock still answers only
// its own host names; with a token (what listening off loopback needs), any Host, a pod's IP too.
// /__admin/health stays behind the token: it tells the version, counts and why Redis is away.
import type { Router } from 'express';
import type { StoreHealth } from '../core/link-store.js';

export interface ReadyDeps {
  /** Whether shared data can be reached now (on Redis a PING, bounded by the store); absent: always. */
  storeHealth?: () => Promise<StoreHealth>;
}

export function addReadyRoute(router: Router, deps: ReadyDeps): void {
  // Express answers HEAD with the GET route, without the body (there is none anyway).
  router.get('/ready', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.status((await isReady(deps)) ? 200 : 503).end();
  });
}

async function isReady(deps: ReadyDeps): Promise<boolean> {
  try {
    return (await deps.storeHealth?.())?.ok ?? true;
  } catch {
    return false; // whatever broke, the probe is told "not ready", never why
  }
}
