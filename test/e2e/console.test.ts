// The QA console at /__admin/, end to end: the real mock listening on loopback, driven through a
// real headless Chromium through playwright-core, which never downloads a browser: the e2e global
// setup (test/setup/e2e-global-setup.ts) finds or installs one and passes its path. Every request
// the page makes outside the mock is blocked and must never happen.
// Waits are Playwright's locator waits with bounded timeouts: no sleeps.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { maskApiKey } from '../../src/core/journal.js';
import { UPSTREAM, VIOLATIONS } from '../../src/http/record-requests.js';
import type { MockOptions } from '../../src/process/mock.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';
import { nextContractFile, nextContractOptions } from '../helpers/next-contract-app.js';

// Generous: CI machines may be busy; these are upper bounds, never waits in themselves.
const WAIT = 20_000;
const TEST_TIMEOUT = 60_000;

interface Served {
  base: string;
  close: () => Promise<void>;
}

async function serve(overrides: Partial<MockOptions> = {}): Promise<Served> {
  const mock = await createTestApp(overrides);
  const server: Server = mock.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections(); // the journal's event stream stays open otherwise
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface OpenConsole {
  page: Page;
  context: BrowserContext;
  /** Requests the page tried to send anywhere but the mock (blocked). */
  blocked: string[];
  /** Uncaught exceptions in the page. */
  pageErrors: string[];
  /** Main-frame navigations: 1 means the page was never reloaded. */
  navigations: () => number;
}

let browser: Browser | undefined;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  const found = inject('e2eBrowser');
  if ('problem' in found) throw new Error(found.problem);
  browser = await chromium.launch({
    executablePath: found.path,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-dev-shm-usage', '--disable-component-update', '--no-first-run'],
    timeout: 20_000,
  });
}, 30_000);

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
});

interface OpenOptions {
  viewport?: { width: number; height: number };
  /** Runs before the page is loaded: more routes (registered later, they are asked first). */
  beforeLoad?: (context: BrowserContext) => Promise<unknown>;
}

async function openConsole(base: string, options: OpenOptions = {}): Promise<OpenConsole> {
  if (!browser) throw new Error('Chromium did not start');
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  contexts.push(context);
  const blocked: string[] = [];
  await context.route('**', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${base}/`)) return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  await options.beforeLoad?.(context);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations += 1;
  });
  await page.goto(`${base}/__admin/`);
  return { page, context, blocked, pageErrors, navigations: () => navigations };
}

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const createBody = { destinationUrl: 'https://example.com/from-the-app', domain: 'short.test', tags: [] };

/** Shows the links of an account in the page and waits for them. */
async function showLinksOf(page: Page, apiKey: string): Promise<void> {
  await page.locator(`#accounts-body tr[data-api-key="${apiKey}"]`).getByRole('button', { name: /^Show links of/ }).click();
  await page.locator('#account-title', { hasText: `(${apiKey})` }).waitFor();
  await page.locator('#links-body tr').first().waitFor();
}

describe('the QA console without an admin token (loopback)', () => {
  let served: Served | undefined;
  beforeEach(async () => {
    served = await serve();
  });
  afterEach(async () => {
    await served?.close();
  });

  it(
    'switches a scenario, then shows the app\'s request live in the journal with the forced status, and the coverage it earned',
    async () => {
      const { base } = served as Served;
      const { page, blocked, pageErrors, navigations } = await openConsole(base);
      await page.evaluate('window.sameDocument = true'); // survives only if the page is never reloaded
      await page.locator('#journal-mode', { hasText: 'live' }).waitFor();

      await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('link-limit-reached');
      await page.getByRole('button', { name: 'Activate' }).click();
      await page.locator('#scenario-active', { hasText: 'link-limit-reached' }).waitFor();
      await page.locator('#health-scenario', { hasText: 'link-limit-reached' }).waitFor();
      expect((await call(base, 'GET', '/__admin/scenarios')).body.active).toBe('link-limit-reached');

      // The app under test creates a link (here: the test, from outside the page).
      const created = await call(base, 'POST', '/links', createBody, { 'x-api-key': DEMO });
      expect(created.status).toBe(400);
      expect(created.body.code).toBe('LINK_LIMIT_REACHED');

      const row = page.locator('#journal-body tr[data-seq]').filter({ hasText: '/links' }).filter({ hasText: 'link-limit-reached' });
      await row.waitFor();
      // Exactly the app's request: none of the console's own admin calls.
      expect(await page.locator('#journal-body tr[data-seq]').count()).toBe(1);
      expect(await row.locator('[data-col="method"]').textContent()).toBe('POST');
      expect(await row.locator('[data-col="status"]').textContent()).toBe('400');
      expect(await row.locator('[data-col="scenario"]').textContent()).toBe('link-limit-reached');
      expect(await row.locator('[data-col="operation"]').textContent()).toBe('createLink');
      expect(await row.locator('[data-col="key"]').textContent()).toBe(maskApiKey(DEMO));
      expect(await page.locator('#journal-live').textContent()).toContain('400');

      // A row expands to its bodies.
      const toggle = row.getByRole('button', { name: /Show request and response bodies/ });
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const details = page.locator('#journal-body tr.details:not([hidden])');
      await details.waitFor();
      expect(await details.textContent()).toContain('LINK_LIMIT_REACHED');
      expect(await details.textContent()).toContain('https://example.com/from-the-app');

      // The coverage matrix: this error path is met, deleteLink 404 never was.
      const key = maskApiKey(DEMO);
      const cell = (outcome: string) => page.locator(`#coverage-body td[data-key="${key}"][data-outcome="${outcome}"]`);
      await cell('createLink 400 LINK_LIMIT_REACHED').filter({ hasText: 'seen ×1' }).waitFor();
      expect(await cell('createLink 400 LINK_LIMIT_REACHED').getAttribute('data-seen')).toBe('true');
      expect((await cell('deleteLink 404').textContent())?.trim()).toBe('✗ never');
      expect((await cell('createLink 201').textContent())?.trim()).toBe('✗ never');

      // All of it without a reload, and nothing left the machine.
      expect(await page.evaluate('window.sameDocument')).toBe(true);
      expect(navigations()).toBe(1);
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'saves a snapshot and restores a link deleted after it',
    async () => {
      const { base } = served as Served;
      const [victim] = (await call(base, 'GET', `/__admin/links?account=${DEMO}`)).body.links as { id: string; slug: string }[];
      if (!victim) throw new Error('demo-key has no seeded link');
      const { page, blocked, pageErrors } = await openConsole(base);
      await page.locator('#journal-mode', { hasText: 'live' }).waitFor();

      await page.getByLabel('Snapshot name').fill('before-delete');
      await page.getByRole('button', { name: 'Save snapshot' }).click();
      await page.locator('#snapshots-body tr[data-snapshot="before-delete"]').waitFor();

      await showLinksOf(page, DEMO);
      const victimRow = page.locator(`#links-body tr[data-link-id="${victim.id}"]`);
      await victimRow.waitFor();

      expect((await call(base, 'DELETE', `/links/${victim.id}`, undefined, { 'x-api-key': DEMO })).status).toBe(204);
      await victimRow.waitFor({ state: 'detached' }); // the journal's entry refreshed the list

      await page.getByRole('button', { name: 'Restore snapshot before-delete' }).click();
      await victimRow.waitFor();
      expect(await victimRow.locator('[data-col="slug"]').textContent()).toBe(victim.slug);
      await page.locator('#status', { hasText: 'Snapshot before-delete restored' }).waitFor();
      const after = (await call(base, 'GET', `/__admin/links?account=${DEMO}`)).body.links as { id: string }[];
      expect(after.map((link) => link.id)).toContain(victim.id);

      await page.getByRole('button', { name: 'Delete snapshot before-delete' }).click();
      await page.locator('#snapshots-body tr[data-snapshot="before-delete"]').waitFor({ state: 'detached' });
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    '"+1 click" adds a click to a link, and says "1 click", then "2 clicks"',
    async () => {
      const { base } = served as Served;
      const created = await call(base, 'POST', '/links', { ...createBody, slug: 'fresh-click' }, { 'x-api-key': DEMO });
      expect(created.status).toBe(201);
      const link = created.body as { id: string; clickCount: number };
      expect(link.clickCount).toBe(0);
      const { page, blocked, pageErrors } = await openConsole(base);
      await showLinksOf(page, DEMO);
      const row = page.locator(`#links-body tr[data-link-id="${link.id}"]`);
      expect(await row.locator('[data-col="clicks"]').textContent()).toBe('0');

      await row.getByRole('button', { name: /^\+1 click on/ }).click();
      await row.locator('[data-col="clicks"]', { hasText: /^1$/ }).waitFor();
      expect(await page.locator('#status').textContent()).toBe('fresh-click: 1 click.');
      await row.getByRole('button', { name: /^\+1 click on/ }).click();
      await page.locator('#status', { hasText: 'fresh-click: 2 clicks.' }).waitFor();
      const after = (await call(base, 'GET', `/__admin/links?account=${DEMO}`)).body.links as { id: string; clickCount: number }[];
      expect(after.find((candidate) => candidate.id === link.id)?.clickCount).toBe(2);
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'pre-selects no scenario while none is active, so "Activate" cannot switch one on by accident',
    async () => {
      const { base } = served as Served;
      const { page, blocked, pageErrors } = await openConsole(base);
      const select = page.getByRole('combobox', { name: 'Scenario', exact: true });
      const activate = page.getByRole('button', { name: 'Activate' });
      await page.locator('#scenario-select option[value="flaky-network"]').waitFor({ state: 'attached' });
      expect(await select.inputValue()).toBe('');
      expect(await activate.isDisabled()).toBe(true);

      await select.selectOption('link-limit-reached');
      expect(await activate.isEnabled()).toBe(true);
      await activate.click();
      await page.locator('#scenario-active', { hasText: 'link-limit-reached' }).waitFor();
      expect(await select.inputValue()).toBe('link-limit-reached');

      await page.getByRole('button', { name: 'Turn off' }).click();
      await page.locator('#scenario-active', { hasText: 'none' }).waitFor();
      expect(await select.inputValue()).toBe('');
      expect(await activate.isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Turn off' }).isDisabled()).toBe(true);
      expect((await call(base, 'GET', '/__admin/scenarios')).body.active).toBeNull();
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'says "Loading…" until the data arrives, never "No requests yet." before it is known',
    async () => {
      const { base } = served as Served;
      expect((await call(base, 'POST', '/links', createBody, { 'x-api-key': DEMO })).status).toBe(201);
      // The admin API's answers wait until the page has been looked at (no timer: a gate).
      let open = (): void => {};
      const gate = new Promise<void>((resolve) => (open = resolve));
      const { page, blocked, pageErrors } = await openConsole(base, {
        beforeLoad: (context) =>
          context.route(`${base}/__admin/**`, async (route) => {
            if (route.request().resourceType() === 'fetch') await gate;
            return route.continue();
          }),
      });
      const notes = ['journal-empty', 'coverage-empty', 'snapshots-empty', 'accounts-empty'];
      await page.locator('#health-version').waitFor();
      for (const id of notes) expect(await page.locator(`#${id}`).textContent(), id).toBe('Loading…');
      open();
      await page.locator('#journal-body tr[data-seq]').first().waitFor();
      await page.locator('#journal-empty').waitFor({ state: 'hidden' });
      await page.locator('#snapshots-empty', { hasText: 'No snapshots saved.' }).waitFor();
      await page.locator('#accounts-empty').waitFor({ state: 'hidden' });
      await page.locator('#coverage-empty').waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Clear journal' }).click();
      await page.locator('#journal-empty', { hasText: 'No requests yet.' }).waitFor();
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'coverage at 1024 px: unknown and missing keys share one column that only the 401s can fill, and the table fits',
    async () => {
      const { base } = served as Served;
      expect((await call(base, 'POST', '/links', createBody, { 'x-api-key': DEMO })).status).toBe(201);
      expect((await call(base, 'POST', '/links', createBody, { 'x-api-key': 'limited-key' })).status).toBe(400);
      expect((await call(base, 'POST', '/links', { ...createBody, domain: 'nope.test' }, { 'x-api-key': 'other-key' })).status).toBe(404);
      expect((await call(base, 'POST', '/links', createBody)).status).toBe(401);
      for (const key of ['key-aaaaa1', 'key-aaaaa2', 'key-aaaaa3']) expect((await call(base, 'DELETE', '/links/lnk_x', undefined, { 'x-api-key': key })).status).toBe(401);

      const { page, blocked, pageErrors } = await openConsole(base, { viewport: { width: 1024, height: 800 } });
      const group = (outcome: string) => page.locator(`#coverage-body td[data-key="no-valid-key"][data-outcome="${outcome}"]`);
      await group('deleteLink 401').filter({ hasText: 'seen ×3' }).waitFor();
      const columns = await page.locator('#coverage-head th[data-key]').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-key')));
      expect(columns).toEqual([maskApiKey(DEMO), maskApiKey('limited-key'), maskApiKey('other-key'), 'no-valid-key']);
      expect(await page.locator('#coverage-head th[data-key="no-valid-key"]').innerText()).toContain('1 request without a key, 3 requests with an unknown key');
      expect(await group('createLink 401').innerText()).toBe('✓ seen ×1');
      expect(await group('updateLink 401').getAttribute('data-seen')).toBe('false');
      for (const outcome of ['createLink 201', 'createLink 400 LINK_LIMIT_REACHED', 'deleteLink 404']) {
        expect(await group(outcome).getAttribute('data-seen')).toBe('n/a');
        expect(await group(outcome).textContent()).toBe('–cannot happen');
      }
      const fits = await page.locator('#coverage .scroll').evaluate((scroll) => ({ scrollWidth: scroll.scrollWidth, clientWidth: scroll.clientWidth }));
      expect(fits.scrollWidth).toBeLessThanOrEqual(fits.clientWidth);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1024);
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'reset asks to confirm: cancelled changes nothing, confirmed puts the seeded fixtures back',
    async () => {
      const { base } = served as Served;
      const seeded = (await call(base, 'GET', '/__admin/health')).body.links as number;
      const { page, blocked, pageErrors } = await openConsole(base);
      await page.locator('#health-links', { hasText: String(seeded) }).waitFor();
      await page.locator('#journal-mode', { hasText: 'live' }).waitFor();

      expect((await call(base, 'POST', '/links', createBody, { 'x-api-key': DEMO })).status).toBe(201);
      await page.locator('#health-links', { hasText: String(seeded + 1) }).waitFor();

      const messages: string[] = [];
      page.once('dialog', (dialog) => {
        messages.push(dialog.message());
        void dialog.dismiss();
      });
      await page.getByRole('button', { name: /^Reset/ }).click();
      await page.locator('#status', { hasText: 'Reset cancelled.' }).waitFor();
      expect((await call(base, 'GET', '/__admin/health')).body.links).toBe(seeded + 1);

      page.once('dialog', (dialog) => {
        messages.push(dialog.message());
        void dialog.accept();
      });
      await page.getByRole('button', { name: /^Reset/ }).click();
      await page.locator('#status', { hasText: 'Reset to the seeded fixtures' }).waitFor();
      await page.locator('#health-links', { hasText: String(seeded) }).waitFor();
      expect((await call(base, 'GET', '/__admin/health')).body.links).toBe(seeded);
      expect(messages).toHaveLength(2);
      expect(messages[0]).toMatch(/Reset the mock to its seeded fixtures\?/);
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});

describe('the QA console with --admin-token', () => {
  let served: Served | undefined;
  beforeAll(async () => {
    served = await serve({ adminToken: 's3cret' });
  });
  afterAll(async () => {
    await served?.close();
  });

  it(
    'asks for the token, refuses a wrong one, loads with the right one and polls the journal with it',
    async () => {
      const { base } = served as Served;
      expect((await call(base, 'GET', '/__admin/health')).status).toBe(401);
      const { page, blocked, pageErrors, navigations } = await openConsole(base);

      const input = page.getByRole('textbox', { name: 'Admin token' });
      await input.waitFor();
      // Without the token nothing but the token box may look usable: no panel, no section links.
      const panels = ['#scenario', '#snapshots', '#journal', '#coverage', '#accounts', '#sections', '#health'];
      const hidden = async () => {
        for (const selector of panels) await page.locator(selector).waitFor({ state: 'hidden' });
      };
      await hidden();
      expect(await page.locator('#token-error').textContent()).toBe('');

      await input.fill('wrong');
      await page.getByRole('button', { name: 'Use token' }).click();
      await page.locator('#token-error', { hasText: 'refused this token' }).waitFor();
      expect(await page.locator('#token-error').textContent()).toContain('does not match the token the server was started with');
      await hidden();

      await input.fill('s3cret');
      await page.getByRole('button', { name: 'Use token' }).click();
      await page.locator('#health-version', { hasText: 'test' }).waitFor();
      await page.locator('#token').waitFor({ state: 'hidden' });
      await page.locator('#scenario-select option[value="link-limit-reached"]').waitFor({ state: 'attached' });
      await page.locator('#accounts-body tr[data-api-key="demo-key"]').waitFor();
      for (const selector of panels) expect(await page.locator(selector).isVisible(), selector).toBe(true);
      expect(await page.evaluate('Object.values(sessionStorage)')).toEqual(['s3cret']);

      // EventSource cannot send the header: the journal polls with it instead.
      await page.locator('#journal-mode', { hasText: 'polling' }).waitFor();
      expect((await call(base, 'DELETE', '/links/lnk_doesnotexist', undefined, { 'x-api-key': DEMO })).status).toBe(404);
      const row = page.locator('#journal-body tr[data-seq]').filter({ hasText: '/links/lnk_doesnotexist' });
      await row.waitFor();
      expect(await row.locator('[data-col="status"]').textContent()).toBe('404');
      await page.locator(`#coverage-body td[data-key="${maskApiKey(DEMO)}"][data-outcome="deleteLink 404"]`).filter({ hasText: 'seen ×1' }).waitFor();

      expect(navigations()).toBe(1);
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});

describe('the QA console with a contract FILE (--contract): the contract view, and what the journal says was generated', () => {
  let served: Served | undefined;
  beforeAll(async () => {
    served = await serve(nextContractOptions('get-link-expires-at.yaml'));
  });
  afterAll(async () => {
    await served?.close();
  });

  it(
    'lists each operation and how it is served, each field FILE adds with its pointer; a journal row names the generated Link fields',
    async () => {
      const { base } = served as Served;
      const { page, blocked, pageErrors } = await openConsole(base);
      await page.locator('#journal-mode', { hasText: 'live' }).waitFor();
      await page.locator('#contract-operations-body tr[data-operation="getLink"]').waitFor();
      expect(await page.locator('#contract-file').textContent()).toBe(nextContractFile('get-link-expires-at.yaml'));
      expect(await page.locator('#contract-version').textContent()).toBe('0.0.3');
      const servedAs = async (operation: string) => page.locator(`#contract-operations-body tr[data-operation="${operation}"] [data-col="served"]`).textContent();
      expect(await servedAs('createLink')).toBe('by rule');
      expect(await servedAs('getLink')).toBe('from the storeone link');
      const field = page.locator('#contract-fields-body tr[data-field="Link.expiresAt"]');
      expect(await field.locator('[data-col="served"]').textContent()).toBe('generated and stored');
      expect(await field.locator('[data-col="pointer"]').textContent()).toBe('/components/schemas/Link/properties/expiresAt');
      expect(await page.locator('#contract-fields-body tr[data-field="createLink.expiresAt"] [data-col="served"]').textContent()).toBe('stored from the request');
      expect(await page.locator('#contract-fields-empty').isHidden()).toBe(true);

      expect((await call(base, 'POST', '/links', createBody, { 'x-api-key': DEMO })).status).toBe(201);
      const row = page.locator('#journal-body tr[data-seq]').first();
      await row.locator('[data-col="operation"] .generated').waitFor();
      expect(await row.locator('[data-col="operation"]').textContent()).toBe('createLinkgenerated: Link.expiresAt');
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'the shipped contract: every operation by rule, no field added or removed',
    async () => {
      const shipped = await serve();
      try {
        const { page, pageErrors } = await openConsole(shipped.base);
        await page.locator('#contract-operations-body tr[data-operation="deleteLink"]').waitFor();
        expect(await page.locator('#contract-file').textContent()).toBe('openapi.yaml (shipped)');
        expect(await page.locator('#contract-operations-body [data-col="served"]').allTextContents()).toEqual(['by rule', 'by rule', 'by rule']);
        expect(await page.locator('#contract-fields-empty').textContent()).toBe('No field added or removed: every field is served as the shipped contract has it.');
        expect(await page.locator('#contract-fields-empty').isVisible()).toBe(true);
        expect(pageErrors).toEqual([]);
      } finally {
        await shipped.close();
      }
    },
    TEST_TIMEOUT,
  );
});

describe('the QA console in proxy mode: violations in the journal, and the drift report', () => {
  const rule = 'response body: must have required property id';
  let served: Served | undefined;
  beforeAll(async () => {
    // Exchanges as the validating proxy leaves them for the recorder (res.locals): forwarded,
    // answered by the upstream, and off-contract on the response side.
    served = await serve({
      handlers: {
        createLink: (_req, res) => {
          res.locals[VIOLATIONS] = [{ side: 'response', rule, detail: 'the body has no id' }];
          res.locals[UPSTREAM] = { url: 'http://upstream.test/links', status: 400, durationMs: 3 };
          res.locals['verdict'] = 'contract-violation';
          res.status(400).json({ errorDescription: 'answered by the upstream' });
        },
      },
    });
  });
  afterAll(async () => {
    await served?.close();
  });

  it(
    'a proxied row shows its violations and the upstream status; the Drift panel lists the violation with its example and clears it',
    async () => {
      const { base } = served as Served;
      const { page, blocked, pageErrors } = await openConsole(base);
      await page.locator('#journal-mode', { hasText: 'live' }).waitFor();
      await page.locator('#drift-empty', { hasText: 'No contract violations seen' }).waitFor();

      for (let i = 0; i < 2; i++) expect((await call(base, 'POST', '/links', createBody, { 'x-api-key': DEMO })).status).toBe(400);

      const row = page.locator('#journal-body tr[data-seq]').first();
      await row.locator('[data-col="verdict"] ul.violations li', { hasText: `response: ${rule}` }).waitFor();
      expect(await row.locator('[data-col="verdict"]').textContent()).toContain('contract-violation');
      expect(await row.locator('[data-col="status"]').textContent()).toBe('400upstream 400');
      await row.getByRole('button', { name: /Show request and response bodies/ }).click();
      const details = page.locator('#journal-body tr.details:not([hidden])');
      expect(await details.locator('.proxied').textContent()).toContain('Forwarded to http://upstream.test/links: answered 400 in 3 ms.');
      expect(await details.locator('.proxied').textContent()).toContain('the body has no id');

      const drift = page.locator('#drift table.drift-group[data-operation="createLink"][data-status="400"]');
      await drift.locator('tr[data-side="response"] td.num', { hasText: '2' }).waitFor();
      expect(await drift.locator('caption').textContent()).toBe('createLink (POST), answered 400');
      expect(await drift.locator('tbody tr').count()).toBe(1);
      await drift.getByText('POST /links').click(); // the example opens
      expect(await drift.locator('details').textContent()).toContain(`key ${maskApiKey(DEMO)}`);
      expect(await drift.locator('details .detail').textContent()).toBe('the body has no id');
      expect(await page.locator('#drift-summary').textContent()).toBe('1 distinct violation.');

      await page.getByRole('button', { name: 'Clear drift report' }).click();
      await page.locator('#drift-empty', { hasText: 'No contract violations seen' }).waitFor();
      expect(await page.locator('#drift-groups table').count()).toBe(0);
      expect((await call(base, 'GET', '/__admin/violations')).body).toEqual({ distinct: 0, dropped: 0, groups: [] });
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
