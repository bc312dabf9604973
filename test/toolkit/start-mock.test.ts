// startMock(): a mock in the test's own process, started by the CLI's code path, on a free port
// and in memory by default, controlled through its admin API; stop() frees the port.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminApiError, ConfigError, startMock, StartupError, type RunningMock, type StartMockOptions } from '../../src/index.js';
import { createLink, updateLink } from './api-calls.js';

/** True when this process can listen on the port: nothing holds it any more. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('startMock: start and stop', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('listens on a free port of 127.0.0.1 in memory, answers the API with the fixture keys, and stop() frees the port', async () => {
    const mock = await startMock();
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.apiKeys).toEqual({ demoKey: 'demo-key', otherKey: 'other-key', limitedKey: 'limited-key' });
    expect((await createLink(mock.url, mock.apiKeys.demoKey)).status).toBe(201);
    expect((await createLink(mock.url, mock.apiKeys.limitedKey)).body.code).toBe('LINK_LIMIT_REACHED');
    const port = Number(new URL(mock.url).port);
    expect(await portIsFree(port)).toBe(false);
    const stopping = mock.stop();
    expect(mock.stop()).toBe(stopping); // a second stop waits for the same one
    await stopping;
    expect(await portIsFree(port)).toBe(true);
  });

  it('never reads the environment: a MOCK_* variable of the test process changes nothing', async () => {
    vi.stubEnv('MOCK_SCENARIO', 'unauthorized');
    vi.stubEnv('MOCK_PORT', 'not a port');
    const mock = await startMock();
    try {
      expect((await mock.health()).scenario).toBeNull();
      expect((await createLink(mock.url, mock.apiKeys.demoKey)).status).toBe(201);
    } finally {
      await mock.stop();
    }
  });

  it('with a db file and a ready file: stop() writes every change, removes the ready file, and the next start keeps the data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-toolkit-db-'));
    const [db, readyFile] = [join(dir, 'db.json'), join(dir, 'ready')];
    try {
      const first = await startMock({ db, readyFile });
      expect(existsSync(readyFile)).toBe(true);
      const created = await createLink(first.url, first.apiKeys.demoKey, { slug: 'kept-on-disk' });
      await first.stop();
      expect(existsSync(readyFile)).toBe(false);
      const second = await startMock({ db });
      try {
        expect((await updateLink(second.url, second.apiKeys.demoKey, created.body.id, 'https://example.com/again')).status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes the CLI options, typed: a start-up scenario and a seed', async () => {
    const mock = await startMock({ scenario: 'unauthorized', seed: 7 });
    try {
      expect((await mock.health()).scenario).toBe('unauthorized');
      expect((await createLink(mock.url, mock.apiKeys.demoKey)).status).toBe(401);
    } finally {
      await mock.stop();
    }
  });

  it('refuses a bad option with the CLI\'s check, naming the option as the caller wrote it', async () => {
    await expect(startMock({ port: 70_000 })).rejects.toThrow(new ConfigError("startMock: options.port must be a whole number from 0 to 65535, got '70000'"));
    await expect(startMock({ durability: 'sometimes' as 'durable' })).rejects.toBeInstanceOf(ConfigError);
    await expect(startMock({ scenario: 'no-such-scenario' })).rejects.toThrow(/^startMock: options.scenario: unknown scenario 'no-such-scenario'; known: /);
    await expect(startMock({ host: '0.0.0.0' })).rejects.toThrow(new StartupError('startMock: options.host 0.0.0.0 is not a loopback address: set options.adminToken to protect the admin API'));
  });

  // Each of these once started a mock (a misspelt name ignored, `variety: 5` dropped, a timeout of
  // -1 failing every later control call with Node's "delay is out of range").
  it.each<[unknown, string | RegExp]>([
    [{ timeoutMs: -1 }, "startMock: options.timeoutMs must be a whole number from 1 to 600000, got '-1'"],
    [{ timeoutMs: 'abc' }, "startMock: options.timeoutMs must be a whole number from 1 to 600000, got 'abc'"],
    [{ stopGraceMs: -5 }, "startMock: options.stopGraceMs must be a whole number from 0 to 600000, got '-5'"],
    [{ log: 'console' }, "startMock: options.log must be a function taking a line, got 'console'"],
    [{ variety: 5 }, 'startMock: options.variety takes { seed, only?, except? }, got 5'],
    [{ prot: 1 }, /^startMock: unknown option 'prot'; did you mean 'port'\?/],
    [{ acceptAnykey: true }, /^startMock: unknown option 'acceptAnykey'; did you mean 'acceptAnyKey'\?/],
  ])('refuses %j with a ConfigError naming it, and starts nothing', async (options, message) => {
    const outcome = await startMock(options as StartMockOptions).then(
      async (started) => {
        await started.stop();
        return 'started';
      },
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(ConfigError);
    expect((outcome as Error).message).toMatch(message);
  });

  // These were once refused by PUT /__admin/variety, an AdminApiError after the mock had started.
  it.each<[StartMockOptions, string]>([
    [{ variety: { seed: 1, only: ['zzz'] } }, "startMock: unknown dimension 'zzz' in options.variety.only (GET /__admin/variety/dimensions lists them)"],
    [{ variety: { seed: 1, except: ['createLink.clickCount:absent', 'createLink.clickCount:absnt'] } }, "startMock: unknown dimension 'createLink.clickCount:absnt' in options.variety.except; did you mean 'createLink.clickCount:absent'? (GET /__admin/variety/dimensions lists them)"],
  ])('refuses %j naming the unknown dimension, from the list the admin API checks against, before starting', async (options, message) => {
    const outcome = await startMock(options).then(
      async (started) => {
        await started.stop();
        return 'started';
      },
      (error: unknown) => error,
    );
    expect(outcome).toEqual(new ConfigError(message));
    expect(outcome).toBeInstanceOf(ConfigError);
  });

  it('starts with variety on the dimensions asked for, each of them known', async () => {
    const mock = await startMock({ variety: { seed: 1, only: ['createLink.clickCount:absent'] } });
    try {
      expect((await mock.variety()).global).toMatchObject({ seed: 1, only: ['createLink.clickCount:absent'], except: null });
    } finally {
      await mock.stop();
    }
  });

  it("reads a number given as text as the CLI reads it: timeoutMs '5000' and stopGraceMs '0'", async () => {
    const mock = await startMock({ timeoutMs: '5000', stopGraceMs: '0' } as unknown as StartMockOptions);
    await mock.health();
    await mock.stop();
  });
});

describe('startMock: the control surface', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock.stop());
  beforeEach(async () => {
    await mock.reset();
    await mock.useScenario(null);
    await mock.clearJournal();
  });

  it('reset() brings back the seeded fixtures: a link created before is gone', async () => {
    const created = await createLink(mock.url, mock.apiKeys.demoKey);
    expect(await mock.reset()).toMatchObject({ status: 'reset', accounts: 3 });
    expect((await updateLink(mock.url, mock.apiKeys.demoKey, created.body.id, 'https://example.com/after')).status).toBe(404);
  });

  it('useScenario(name) switches the global scenario on and useScenario(null) off; an unknown one is an AdminApiError', async () => {
    expect(await mock.useScenario('unauthorized')).toEqual({ active: 'unauthorized' });
    expect((await createLink(mock.url, mock.apiKeys.demoKey)).status).toBe(401);
    expect(await mock.useScenario(null)).toEqual({ active: null });
    expect((await createLink(mock.url, mock.apiKeys.demoKey)).status).toBe(201);
    const refusal = await mock.useScenario('no-such-scenario').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AdminApiError);
    expect(refusal).toMatchObject({ status: 400, call: 'PUT /__admin/scenario', errorDescription: expect.stringContaining('no-such-scenario') });
  });

  it('journal(filter) lists the requests made, filtered by operation and status', async () => {
    await createLink(mock.url, mock.apiKeys.demoKey);
    await createLink(mock.url, mock.apiKeys.limitedKey);
    const created = await mock.journal({ operation: 'createLink', status: 201 });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ method: 'POST', path: '/links', status: 201, verdict: 'ok' });
    expect(await mock.journal({ account: mock.apiKeys.limitedKey })).toHaveLength(1);
    expect(await mock.journal({ limit: 1 })).toHaveLength(1);
  });

  it('coverage(apiKey) shows what that key met and what it never did', async () => {
    await createLink(mock.url, mock.apiKeys.otherKey);
    const { accounts, documented } = await mock.coverage(mock.apiKeys.otherKey);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]?.seen).toContainEqual(expect.objectContaining({ operationId: 'createLink', status: 201 }));
    expect(accounts[0]?.missing.length).toBe(documented.length - 1);
  });

  it('setLinkLimit() puts an account at its limit: its next create is LINK_LIMIT_REACHED', async () => {
    const account = await mock.setLinkLimit(mock.apiKeys.otherKey, 0);
    expect(account).toMatchObject({ apiKey: mock.apiKeys.otherKey, linkLimit: 0 });
    const refused = await createLink(mock.url, mock.apiKeys.otherKey);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('LINK_LIMIT_REACHED');
  });

  it('addClicks() adds simulated clicks to a link, and links() shows it', async () => {
    const created = await createLink(mock.url, mock.apiKeys.demoKey);
    expect((await mock.addClicks(created.body.id, 3)).clickCount).toBe(3);
    const [newest] = await mock.links(mock.apiKeys.demoKey);
    expect(newest).toMatchObject({ id: created.body.id, clickCount: 3 });
  });

  it('snapshot() and restore() bring a saved state back', async () => {
    const kept = await createLink(mock.url, mock.apiKeys.demoKey, { slug: 'kept' });
    expect(await mock.snapshot('toolkit-test')).toMatchObject({ name: 'toolkit-test' });
    const dropped = await createLink(mock.url, mock.apiKeys.demoKey, { slug: 'dropped' });
    expect(await mock.restore('toolkit-test')).toMatchObject({ status: 'restored' });
    expect((await updateLink(mock.url, mock.apiKeys.demoKey, kept.body.id, 'https://example.com/kept')).status).toBe(200);
    expect((await updateLink(mock.url, mock.apiKeys.demoKey, dropped.body.id, 'https://example.com/dropped')).status).toBe(404);
    await expect(mock.restore('never-saved')).rejects.toMatchObject({ status: 404 });
  });
});
