// The runner against a mock someone else started (--base-url), varied for one API key only
// (--api-key): the suite that uses the key meets the variety; another key on the same mock never does.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRobustnessCommand } from '../../src/commands/robustness.js';
import { startMock, type RunningMock } from '../../src/toolkit/start-mock.js';
import { CLIENT_NODE } from './client-node.js';

const CLIENT = join(import.meta.dirname, 'clients', 'created-at-needs-z.cjs');
let mock: RunningMock;
beforeAll(async () => void (mock = await startMock({ log: () => {} })));
afterAll(() => mock.stop());

async function robustness(apiKey: string): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const argv = ['--base-url', mock.url, '--api-key', apiKey, '--runs', '20', '--seed', '2026', '--', ...CLIENT_NODE, CLIENT];
  const code = await runRobustnessCommand(argv, { PATH: process.env['PATH'] }, { out: (text) => lines.push(text), err: (text) => lines.push(text) });
  return { code, out: lines.join('\n') };
}

describe('robustness --base-url --api-key', { timeout: 120_000 }, () => {
  it("varies the answers of the command's key and finds its failure", async () => {
    const { code, out } = await robustness('demo-key');
    expect({ code, out }).toMatchObject({ code: 1 });
    expect(out).toContain('createLink.createdAt:offset:');
  });

  it('leaves the answers of every other key as they are: the client (demo-key) passes every run', async () => {
    const { code, out } = await robustness('other-key');
    expect({ code, out }).toMatchObject({ code: 0 });
    expect(out).toContain('0 dimensions varied');
    // Nothing stays switched on after the run.
    expect(await (await fetch(`${mock.url}/__admin/variety`)).json()).toEqual({ global: null, byKey: {} });
  });
});
