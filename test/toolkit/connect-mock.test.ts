// connectMock(): the same control surface for a mock running elsewhere: one started with an admin
// token, and the CLI in a process of its own; a wrong token or no mock at all is a clear refusal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { AdminApiError, ConfigError, connectMock, startMock, type RunningMock } from '../../src/index.js';
import { startCli } from '../helpers/cli-process.js';
import { holdRefusingPort } from '../helpers/refusing-port.js';
import { createLink, updateLink } from './api-calls.js';

const ADMIN_TOKEN = 'toolkit-admin-token';
let elsewhere: RunningMock;
beforeAll(async () => {
  elsewhere = await startMock({ adminToken: ADMIN_TOKEN });
});
afterAll(() => elsewhere.stop());

describe('connectMock', () => {
  it('links(apiKey) follows every page of GET /__admin/links (issue 23: a page holds 1,000 at most)', async () => {
    const mock = await connectMock(elsewhere.url, { adminToken: ADMIN_TOKEN });
    await mock.reset();
    await mock.setLinkLimit('limited-key', 1_100);
    const before = (await mock.links('limited-key')).length;
    const made = 1_001 - before;
    for (let start = 0; start < made; start += 50) await Promise.all(Array.from({ length: Math.min(50, made - start) }, () => createLink(elsewhere.url, 'limited-key')));
    const all = await mock.links('limited-key');
    expect(all).toHaveLength(1_001);
    expect(new Set(all.map((link) => link.id)).size).toBe(1_001);
    await mock.reset();
    await mock.clearJournal();
  });

  it('controls a mock started elsewhere with its admin token: the same calls as startMock', async () => {
    const mock = await connectMock(`${elsewhere.url}/`, { adminToken: ADMIN_TOKEN });
    expect(mock.url).toBe(elsewhere.url);
    expect('stop' in mock).toBe(false);
    await mock.useScenario('not-found');
    expect((await createLink(mock.url, mock.apiKeys.demoKey)).status).toBe(404);
    await mock.useScenario(null);
    const created = await createLink(mock.url, mock.apiKeys.demoKey);
    expect((await mock.journal({ operation: 'createLink' })).map((entry) => entry.status)).toEqual([404, 201]);
    expect((await mock.addClicks(created.body.id, 2)).clickCount).toBe(2);
    await mock.reset();
    expect((await updateLink(mock.url, mock.apiKeys.demoKey, created.body.id, 'https://example.com/x')).status).toBe(404);
  });

  it('controls the CLI in a process of its own (the built dist/), token and all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-toolkit-cli-'));
    const cli = await startCli(['--db', ':memory:', '--admin-token', ADMIN_TOKEN], dir);
    try {
      const mock = await connectMock(cli.url, { adminToken: ADMIN_TOKEN });
      const { apiKey, links } = await mock.account(); // starts without links: the limit is links + 1
      await mock.setLinkLimit(apiKey, links + 1);
      expect((await createLink(mock.url, apiKey)).status).toBe(201);
      expect((await createLink(mock.url, apiKey)).body.code).toBe('LINK_LIMIT_REACHED');
      expect(await mock.journal({ account: apiKey })).toHaveLength(2);
    } finally {
      await cli.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a timeoutMs out of its bound before any call, as startMock() does', async () => {
    await expect(connectMock(elsewhere.url, { adminToken: ADMIN_TOKEN, timeoutMs: -1 })).rejects.toThrow(new ConfigError("connectMock: options.timeoutMs must be a whole number from 1 to 600000, got '-1'"));
  });

  it('refuses at once, with the mock\'s Error object, when the admin token is missing or wrong', async () => {
    const missing = await connectMock(elsewhere.url).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(AdminApiError);
    expect(missing).toMatchObject({ status: 401, call: 'GET /__admin/health' });
    expect((missing as AdminApiError).errorDescription).toMatch(/x-admin-token/);
    await expect(connectMock(elsewhere.url, { adminToken: 'wrong' })).rejects.toMatchObject({ status: 401 });
  });

  it('says there is no answer (status 0) when nothing listens at the URL, within its timeout', async () => {
    const refusing = await holdRefusingPort();
    onTestFinished(() => refusing.release());
    const refusal = await connectMock(refusing.url, { timeoutMs: 2_000 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AdminApiError);
    expect(refusal).toMatchObject({ status: 0, errorDescription: expect.stringContaining('ECONNREFUSED') });
  });
});
