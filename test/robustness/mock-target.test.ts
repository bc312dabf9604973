// The mock the runner starts for itself (no --base-url), driven run after run as the runner drives
// it: each run starts from the fixtures and reads the journal entries of its own requests only,
// though the journal's mark is the one read after the previous run and variety is not switched
// off between runs (mock-target.ts: two admin calls a run fewer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type MockTarget } from '../../src/robustness/mock-target.js';

let target: MockTarget;
beforeAll(async () => void (target = await openTarget({})));
afterAll(() => target.stop());

async function createLink(): Promise<void> {
  const headers = { 'x-api-key': 'demo-key', 'content-type': 'application/json' };
  const answer = await fetch(`${target.url}/links`, { method: 'POST', headers, body: JSON.stringify({ destinationUrl: 'https://example.com/a', domain: 'short.test', tags: [] }) });
  expect(answer.status).toBe(201);
}

async function demoLinks(): Promise<number> {
  const { accounts } = (await (await fetch(`${target.url}/__admin/accounts`)).json()) as { accounts: Array<{ apiKey: string; links: number }> };
  return accounts.find((account) => account.apiKey === 'demo-key')?.links ?? -1;
}

describe("the runner's own mock, run after run", () => {
  it("starts each run from the fixtures and reads that run's journal entries only", async () => {
    const fixtures = await demoLinks();
    for (const [seed, requests] of [[1, 1], [2, 3], [3, 2]] as const) {
      await target.beforeRun();
      expect(await demoLinks()).toBe(fixtures);
      const mark = await target.journalMark();
      await target.setVariety({ seed });
      for (let i = 0; i < requests; i += 1) await createLink();
      const entries = await target.journalAfter(mark);
      expect(entries.map((entry) => [entry.operationId, entry.variety?.seed])).toEqual(Array.from({ length: requests }, () => ['createLink', seed]));
      await target.afterVariedRun();
    }
  });
});
