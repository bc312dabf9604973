// The runner against a mock someone else started (--base-url), varied for one API key only
// (--api-key): the suite that uses the key (given to it in MOCK_API_KEY) meets the variety; another
// key on the same mock never does, and a run set that varied nothing is no pass.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRobustnessCommand } from '../../src/commands/robustness.js';
import { startMock, type RunningMock } from '../../src/toolkit/start-mock.js';
import { CLIENT_NODE } from './client-node.js';

const CLIENT = join(import.meta.dirname, 'clients', 'created-at-needs-z.cjs');
let mock: RunningMock;
beforeAll(async () => void (mock = await startMock({ log: () => {} })));
afterAll(() => mock.stop());

/** `clientKey`: the key the client sends whatever it is given (CLIENT_API_KEY, clients/api.cjs). */
async function robustness(apiKey: string, clientKey?: string): Promise<{ code: number; out: string; err: string }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const argv = ['--base-url', mock.url, '--api-key', apiKey, '--runs', '20', '--seed', '2026', '--', ...CLIENT_NODE, CLIENT];
  const env = { PATH: process.env['PATH'], ...(clientKey === undefined ? {} : { CLIENT_API_KEY: clientKey }) };
  const code = await runRobustnessCommand(argv, env, { out: (text) => lines.push(text), err: (text) => (lines.push(text), errors.push(text)) });
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

describe('robustness --base-url --api-key', { timeout: 120_000 }, () => {
  it("varies the answers of the command's key and finds its failure", async () => {
    const { code, out } = await robustness('demo-key');
    expect({ code, out }).toMatchObject({ code: 1 });
    expect(out).toContain('createLink.createdAt:offset:');
  });

  it('gives the command the key in MOCK_API_KEY: a client that sends it has its answers varied', async () => {
    const { apiKey } = await mock.account();
    const { code, out } = await robustness(apiKey);
    expect({ code, out }).toMatchObject({ code: 1 });
    expect(out).toContain('createLink.createdAt:offset:');
  });

  it('leaves the answers of every other key as they are, and a client that sends another key tested nothing (exit 2)', async () => {
    const { code, out, err } = await robustness('other-key', 'demo-key');
    expect({ code, out }).toMatchObject({ code: 2 });
    expect(out).toContain('0 dimensions varied');
    expect(out).not.toContain('every run passed');
    expect(err).toBe("shortlink-mock robustness: nothing was tested: no run sent a request with the API key 'other-key' (--api-key), so no answer was varied; the command gets the key in MOCK_API_KEY");
    // Nothing stays switched on after the run.
    expect(await (await fetch(`${mock.url}/__admin/variety`)).json()).toEqual({ global: null, byKey: {} });
  });
});
