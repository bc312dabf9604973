// The round trip of issue 15, item 3: a client suite runs against a mock, `pact export` (the real
// command code) writes the pact from its journal, and the Pact Verifier of @pact-foundation/pact
// verifies it against a fresh mock, whose POST /__admin/provider-states sets each state up. The
// same pact must fail against a provider with one deliberate break, and only because of it.
// On the memory store (the 'unit' project): the states on Redis are test/admin/provider-states.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Link } from '../../src/core/api-types.js';
import { accountOf } from '../../src/http/operations.js';
import type { PactFile } from '../../src/pact/export-pact-v3.js';
import { runPactCheck } from '../../src/pact/check-command.js';
import { runPactExport } from '../../src/pact/export-command.js';
import { startMock, type RunningMock } from '../../src/index.js';
import { verifyPact } from '../helpers/pact-verifier.js';
import { createTestApp } from '../helpers/test-app.js';

const dir = mkdtempSync(join(tmpdir(), 'pact-round-trip-'));
const pactFile = join(dir, 'pacts', 'links-web-shortlink-api.json');
const silent = { out: () => undefined, err: (text: string) => console.error(text) };

/** The client suite: every outcome the issue names, as a client of the API would meet them. */
async function clientSuite(url: string): Promise<void> {
  const call = async (method: string, path: string, key: string | undefined, body?: unknown, extra: Record<string, string> = {}) => {
    const headers: Record<string, string> = { ...extra, ...(key === undefined ? {} : { 'x-api-key': key }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, body: (response.status === 204 ? null : await response.json()) as unknown };
  };
  const created = await call('POST', '/links', 'demo-key', { destinationUrl: 'https://example.com/spring', domain: 'go.acme.test', slug: 'spring-sale', tags: [{ name: 'spring' }] });
  expect(created.status).toBe(201);
  const link = created.body as Link;
  expect((await call('PUT', `/links/${link.id}`, 'demo-key', { destinationUrl: 'https://example.com/summer' })).status).toBe(200);
  expect((await call('DELETE', `/links/${link.id}`, 'demo-key')).status).toBe(204);
  expect((await call('DELETE', `/links/${link.id}`, 'demo-key')).status).toBe(404);
  expect((await call('POST', '/links', 'demo-key', { domain: 'short.test', tags: [] })).status).toBe(400);
  expect((await call('POST', '/links', 'demo-key', { destinationUrl: 'https://example.com/x', domain: 'go.acme.test', slug: 'spring-sale', tags: [] })).status).toBe(201);
  expect((await call('POST', '/links', undefined, { destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [] })).status).toBe(401);
  const limited = await call('POST', '/links', 'limited-key', { destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [] });
  expect(limited.body).toMatchObject({ code: 'LINK_LIMIT_REACHED' });
  // A scenario is the mock's own control: not part of the pact.
  expect((await call('PUT', '/links/lnk_any', 'demo-key', { tags: [] }, { 'x-mock-scenario': 'unauthorized' })).status).toBe(401);
}

/** The verifier's report is captured (test/helpers/pact-verifier.ts): a passing run prints no failure, even an expected one. */
const verify = (providerUrl: string, pactUrl: string) =>
  verifyPact({ provider: 'shortlink-api', providerBaseUrl: providerUrl, pactUrls: [pactUrl], providerStatesSetupUrl: `${providerUrl}/__admin/provider-states`, logLevel: 'error' });
/** Passes, or fails showing the verifier's report. */
async function expectVerified(providerUrl: string, pactUrl: string): Promise<void> {
  const { verified, report } = await verify(providerUrl, pactUrl);
  expect(verified, report).toBe(true);
}

/** A mock whose updateLink answers the link unchanged: schema-valid, so only the pact can tell. */
async function brokenProvider(): Promise<{ url: string; server: Server }> {
  const app = await createTestApp({
    handlers: {
      updateLink: async (req, res) => {
        const link = await app.service.store.linkById(String(req.params['id'] ?? req.path.split('/').pop()));
        if (!link || link.accountId !== accountOf(res).id) return void res.status(404).json({ errorDescription: 'link not found' });
        res.status(200).json(await app.service.view(link));
      },
    },
  });
  const server = createServer(app.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('pact export → Pact Verifier against a fresh mock', () => {
  let pact: PactFile;
  let fresh: RunningMock;
  beforeAll(async () => {
    const consumerSide = await startMock({ log: () => undefined });
    try {
      await clientSuite(consumerSide.url);
      expect(await runPactExport(['--consumer', 'links-web', '--base-url', consumerSide.url, '--out', pactFile], {}, silent)).toBe(0);
    } finally {
      await consumerSide.stop();
    }
    pact = JSON.parse(readFileSync(pactFile, 'utf8')) as PactFile;
    fresh = await startMock({ log: () => undefined });
  });
  afterAll(async () => {
    await fresh?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the pact has one interaction per outcome the client caused, none shaped by a scenario', () => {
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual([
      'createLink answered 201',
      'updateLink answered 200',
      'deleteLink answered 204',
      'deleteLink answered 404',
      'createLink answered 400',
      'createLink answered 401',
      'createLink answered 400 LINK_LIMIT_REACHED',
    ]);
  });

  it('keeps the contract: pact check (openapi.yaml) accepts every interaction', async () => {
    expect(await runPactCheck([pactFile], {}, silent)).toBe(0);
  });

  it('passes the Pact Verifier against a fresh mock, its states set up through the admin API, again and in reverse order', async () => {
    await expectVerified(fresh.url, pactFile);
    // Each state is made true whatever came before: the same pact passes again on the same mock, in any order.
    const reversed = join(dir, 'reversed.json');
    writeFileSync(reversed, JSON.stringify({ ...pact, interactions: [...pact.interactions].reverse() }));
    await expectVerified(fresh.url, reversed);
  });

  it('fails against a provider whose update ignores the new destination, and passes it without that interaction', async () => {
    const broken = await brokenProvider();
    try {
      const failed = await verify(broken.url, pactFile);
      expect(failed.verified, failed.report).toBe(false);
      // Only because of the update: its body is the one that does not match.
      expect(failed.report.split('\n').filter((line) => /^\s+has .*FAILED/.test(line)), failed.report).toHaveLength(1);
      expect(failed.report).toMatch(/updateLink answered 200[\s\S]*has a matching body \(\S*FAILED/);
      const withoutUpdate = join(dir, 'without-update.json');
      writeFileSync(withoutUpdate, JSON.stringify({ ...pact, interactions: pact.interactions.filter((interaction) => !interaction.description.startsWith('updateLink')) }));
      await expectVerified(broken.url, withoutUpdate);
    } finally {
      await new Promise((resolve) => broken.server.close(resolve));
    }
  });
});
