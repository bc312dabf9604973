// Proof of issue 26, item 4: `shortlink-mock robustness` against small, deliberately brittle
// clients (test/robustness/clients/, each a real program run as its own test command) and a mock
// in variety mode started by the runner itself. Each brittle client's failure is found within 20
// runs and shrunk to the one dimension that causes it, and only that one; the tolerant client
// passes every run. Seeds are fixed: a run replays exactly.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRobustnessCommand } from '../../src/commands/robustness.js';
import { CLIENT_NODE } from './client-node.js';

const CLIENTS = join(import.meta.dirname, 'clients');
const dir = mkdtempSync(join(tmpdir(), 'robustness-clients-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Report {
  runs: number;
  failures: Array<{ seed: number; minimal: string[]; examples: Record<string, unknown> }>;
  dimensionsSeen: string[];
}

async function robustness(client: string, seed = 2026): Promise<{ code: number; report: Report; out: string }> {
  const json = join(dir, `${client}-${seed}.json`);
  const lines: string[] = [];
  const argv = ['--runs', '20', '--seed', String(seed), '--json', json, '--', ...CLIENT_NODE, join(CLIENTS, `${client}.cjs`)];
  const code = await runRobustnessCommand(argv, { PATH: process.env['PATH'] }, { out: (text) => lines.push(text), err: (text) => lines.push(text) });
  const out = lines.join('\n');
  let report: Report = { runs: 0, failures: [], dimensionsSeen: [] };
  try {
    report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  } catch {
    // No report: the assertion on the exit code below shows the runner's own words.
  }
  return { code, report, out };
}

// Concurrent: each case starts its own mock (in this process) and runs its client as child
// processes, so the cases share nothing; the file's time was the sum of 21 cases waiting on them.
describe('the robustness runner against brittle clients', { timeout: 120_000, concurrent: true }, () => {
  // --seed 2026, and three other base seeds: the runs cover every dimension whatever the base (seeds.ts).
  const cases = [
    ['created-at-needs-z', 'createLink.createdAt:offset'],
    ['click-count-method', 'updateLink.clickCount:absent'],
    ['content-type-exact', 'createLink.content-type:no-charset'],
    ['tags-sorted', 'createLink.tags:permuted'],
    ['title-fits-60', 'updateLink.title:longest'],
  ] as const;
  it.each(cases.flatMap(([client, dimension]) => [2026, 1, 777_777, 2_000_000_000].map((seed) => [client, dimension, seed] as const)))('%s: finds the failure within 20 runs and shrinks it to %s alone (--seed %d)', async (client, dimension, seed) => {
    const { code, report, out } = await robustness(client, seed);
    expect({ code, out }).toMatchObject({ code: 1 });
    expect(report.runs).toBe(20);
    expect(report.failures.length).toBeGreaterThan(0);
    for (const failure of report.failures) {
      expect(failure.minimal, out).toEqual([dimension]);
      expect(Object.keys(failure.examples)).toEqual([dimension]);
    }
  });

  it('tolerant: passes every one of the 20 runs, over many dimensions', async () => {
    const { code, report, out } = await robustness('tolerant');
    expect({ code, out }).toMatchObject({ code: 0 });
    expect(report.failures).toEqual([]);
    expect(report.dimensionsSeen.length).toBeGreaterThan(5);
  });
});
