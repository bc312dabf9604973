// Admin routes about the data: health, reset, accounts (listed, made, limited), links, clicks, limits and snapshots.
import type { Router } from 'express';
import { addClicks, linksOfAccount, saveSnapshot, setLinkLimit } from '../core/admin-ops.js';
import { errors } from '../core/errors.js';
import type { LinkService } from '../core/links.js';
import type { AccountRecord, MockData } from '../core/model.js';
import { newAccount, type NewAccountRequest, type SeedAccount } from '../core/new-account.js';
import type { KnownLinks, SnapshotStore } from '../core/snapshots.js';
import type { Awaitable } from '../core/awaitable.js';
import { isStoreUnavailable, type StoreHealth } from '../core/link-store.js';

export interface StateDeps {
  service: LinkService;
  snapshots: SnapshotStore;
  /** Seeds a new account from its key, as --accept-any-key does (POST /accounts). */
  seedAccount: SeedAccount;
  /** Puts the seeded fixtures back. */
  reset: () => Promise<void>;
  /** Called after a reset or restore (the scenarios' counters start over). */
  onStateReplaced: () => Awaitable<void>;
  version: string;
  startedAt: Date;
  activeScenario: () => Awaitable<string | null>;
  /** Whether shared data can be reached now (Redis); absent for this process's own data. */
  storeHealth?: () => Promise<StoreHealth>;
}

export function addStateRoutes(router: Router, deps: StateDeps): void {
  const { service } = deps;
  router.get('/health', async (_req, res) => {
    const uptimeSeconds = Math.floor((Date.now() - deps.startedAt.getTime()) / 1000);
    // D25: a mock whose data is out of reach is not healthy, and says why. Redis may answer PING
    // and still refuse the data (an ACL without the prefix's keys: NOPERM): that is a 503 too.
    const unavailable = (reason: string) => res.status(503).json({ status: 'unavailable', version: deps.version, uptimeSeconds, reason });
    const store = (await deps.storeHealth?.()) ?? { ok: true };
    if (!store.ok) return void unavailable(store.reason);
    try {
      res.json({ status: 'ok', version: deps.version, uptimeSeconds, ...(await counts(service)), scenario: await deps.activeScenario() });
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      unavailable((error as Error).message.replace(/^store unavailable: /, ''));
    }
  });
  // No body is read: the admin contract lets through none, an empty one or {} (ResetRequest), so a
  // seed or any option sent is refused there instead of being ignored here.
  router.post('/reset', async (_req, res) => {
    await deps.reset();
    await deps.onStateReplaced();
    res.json({ status: 'reset', ...(await counts(service)) });
  });
  router.get('/accounts', async (_req, res) => {
    const accounts = await service.store.accounts();
    res.json({ accounts: await Promise.all(accounts.map((account) => accountView(service, account))) });
  });
  router.post('/accounts', async (req, res) => {
    // The body is optional: none at all is {} (a random key, the seeded name and limit).
    const account = await newAccount(service, deps.seedAccount, (req.body ?? {}) as NewAccountRequest);
    res.status(201).json(await accountView(service, account));
  });
  router.put('/accounts/:apiKey/limit', async (req, res) => {
    const account = await setLinkLimit(service, String(req.params['apiKey']), (req.body as { linkLimit: number }).linkLimit);
    res.json(await accountView(service, account));
  });
  router.get('/links', async (req, res) => {
    // The admin contract checked both: limit an integer from 1 to MAX_LINKS_PER_PAGE, cursor a string.
    const { limit, cursor } = req.query;
    res.json(await linksOfAccount(service, String(req.query['account']), { ...(limit === undefined ? {} : { limit: Number(limit) }), ...(typeof cursor === 'string' ? { cursor } : {}) }));
  });
  router.post('/links/:id/clicks', async (req, res) => {
    res.json(await addClicks(service, String(req.params['id']), (req.body as { count: number }).count));
  });
  router.get('/snapshots', async (_req, res) => {
    res.json({ snapshots: await deps.snapshots.list() });
  });
  router.post('/snapshots/:name', async (req, res) => {
    res.status(201).json(await saveSnapshot(service, deps.snapshots, String(req.params['name'])));
  });
  router.post('/snapshots/:name/restore', async (req, res) => {
    const name = String(req.params['name']);
    // Unchanged links as the stored records, where the store can (LinkStore.readReusing, issue 40).
    const load = (known?: KnownLinks): Promise<MockData | undefined> => deps.snapshots.load(name, known);
    const data = await (service.store.readReusing ? service.store.readReusing(load) : load());
    if (!data) throw errors.snapshotNotFound(name);
    // A copy of its own already (SnapshotStore.load): a clone of 1,000,000 links held the loop for seconds.
    await service.replaceData(data);
    await deps.onStateReplaced();
    res.json({ status: 'restored', ...(await counts(service)) });
  });
  router.delete('/snapshots/:name', async (req, res) => {
    const name = String(req.params['name']);
    if (!(await deps.snapshots.delete(name))) throw errors.snapshotNotFound(name);
    res.status(204).end();
  });
}

async function counts(service: LinkService): Promise<{ accounts: number; links: number }> {
  const [accounts, links] = await Promise.all([service.store.accounts(), service.store.totalLinks()]);
  return { accounts: accounts.length, links };
}

async function accountView(service: LinkService, account: AccountRecord) {
  const [defaultDomain, links] = await Promise.all([service.store.defaultDomain(), service.store.linkCount(account.id)]);
  const domains = [defaultDomain, ...account.domains].map((domain) => ({ id: domain.id, name: domain.name }));
  return { id: account.id, name: account.name, apiKey: account.apiKey, linkLimit: account.linkLimit, links, domains };
}
