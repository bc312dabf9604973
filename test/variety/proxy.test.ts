// Variety and the validating proxy: variety varies the mock's own answers, and in proxy mode the
// answers are the upstream's. So the two together are refused at start-up (exit 2, one line), a
// PUT /__admin/variety on a proxy is a 400 saying why, and x-mock-variety is not sent upstream.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/process/config.js';
import { startMock, type RunningMock } from '../../src/toolkit/start-mock.js';

let upstream: { url: string; seen: IncomingHttpHeaders[]; close: () => void };
let proxy: RunningMock;
beforeAll(async () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ errorDescription: 'The x-api-key header is missing' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
  proxy = await startMock({ proxy: upstream.url });
});
afterAll(async () => {
  await proxy?.stop();
  upstream?.close();
});

const refusal = (argv: string[], env: Record<string, string> = {}): string => {
  try {
    parseConfig(argv, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return 'accepted';
};

describe('variety with the validating proxy', () => {
  it('is refused at start-up, by flag or by environment, in one line', () => {
    expect(refusal(['--proxy', 'http://up.test', '--variety', '4'])).toMatch(/^--variety only applies without --proxy: variety varies the mock's own answers, and with --proxy the answers are the upstream's$/);
    expect(refusal([], { MOCK_PROXY: 'http://up.test', MOCK_VARIETY: '4' })).toMatch(/^MOCK_VARIETY only applies without MOCK_PROXY:/);
    expect(refusal(['--variety', '4'])).toBe('accepted');
  });

  it('startMock refuses the two together too', async () => {
    await expect(startMock({ proxy: 'http://127.0.0.1:9', variety: { seed: 1 } })).rejects.toThrow(/^startMock: .*variety.* only applies without .*proxy/);
  });

  it('PUT /__admin/variety on a proxy is a 400 saying why; the dimensions are still listed', async () => {
    const res = await fetch(`${proxy.url}/__admin/variety`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seed: 1 }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errorDescription: string }).errorDescription).toMatch(/proxy mode.*upstream's/);
    expect((await fetch(`${proxy.url}/__admin/variety/dimensions`)).status).toBe(200);
    expect(await (await fetch(`${proxy.url}/__admin/variety`)).json()).toEqual({ global: null, byKey: {} });
  });

  it('does not send x-mock-variety to the upstream (a control of the mock, like x-mock-scenario)', async () => {
    upstream.seen.length = 0;
    const res = await fetch(`${proxy.url}/links`, { method: 'POST', headers: { 'x-mock-variety': '3', 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]).not.toHaveProperty('x-mock-variety');
  });
});

describe('the robustness runner against a proxy', () => {
  it('refuses it before running the command: the mock cannot switch variety on (exit 2)', async () => {
    const { runRobustnessCommand } = await import('../../src/commands/robustness.js');
    const err: string[] = [];
    const progress: string[] = [];
    const code = await runRobustnessCommand(['--base-url', proxy.url, '--runs', '1', '--', process.execPath, '-e', 'process.exit(0)'], {}, { out: () => {}, err: (text) => err.push(text), progress: (text) => progress.push(text) });
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/cannot use the mock: .*proxy mode/);
    expect(progress).toEqual([]);
  });
});
