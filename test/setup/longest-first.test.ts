// The suite's order on a fresh clone (no durations cached): the files SLOW_FILES names first, longest
// first, inside each group and project; with durations cached, those decide.
import type { TestSpecification } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import LongestFirst, { SLOW_FILES } from './longest-first.js';

const ROOT = '/repo';

interface Fake {
  path: string;
  project: string;
  groupOrder?: number;
  size?: number;
  cachedMs?: number;
}

function order(fakes: Fake[]): Promise<string[]> {
  const projects = new Map<string, object>();
  const project = (name: string, groupOrder: number): object => {
    const key = `${name}:${groupOrder}`;
    if (!projects.has(key)) projects.set(key, { name, config: { sequence: { groupOrder }, isolate: false } });
    return projects.get(key)!;
  };
  const specs = fakes.map((fake) => ({ moduleId: `${ROOT}/${fake.path}`, project: project(fake.project, fake.groupOrder ?? 0), fake }));
  const byKey = new Map(specs.map((spec) => [`${spec.fake.project}:${spec.fake.path}`, spec.fake]));
  const cache = {
    getFileTestResults: (key: string) => (byKey.get(key)?.cachedMs === undefined ? undefined : { duration: byKey.get(key)?.cachedMs, failed: false }),
    getFileStats: (key: string) => ({ size: byKey.get(key)?.size ?? 1 }),
  };
  const sequencer = new LongestFirst({ cache, config: { root: ROOT } } as never);
  return sequencer.sort(specs as unknown as TestSpecification[]).then((sorted) => sorted.map((spec) => `${spec.project.name}:${(spec as unknown as { fake: Fake }).fake.path}`));
}

describe('the order the files start in', () => {
  it('without cached durations: the listed slow files first, longest first, then the rest by size', async () => {
    expect(SLOW_FILES['test/package/git-install.test.ts']).toBeGreaterThan(SLOW_FILES['test/process/cli.test.ts'] ?? 0);
    const sorted = await order([
      { path: 'test/core/big.test.ts', project: 'unit', size: 90_000 },
      { path: 'test/process/cli.test.ts', project: 'unit', size: 5_000 },
      { path: 'test/core/small.test.ts', project: 'unit', size: 100 },
      { path: 'test/package/git-install.test.ts', project: 'unit', size: 3_000 },
    ]);
    expect(sorted).toEqual(['unit:test/package/git-install.test.ts', 'unit:test/process/cli.test.ts', 'unit:test/core/big.test.ts', 'unit:test/core/small.test.ts']);
  });

  it('keeps group order and projects apart: a slow file of a later group still runs in its group', async () => {
    const sorted = await order([
      { path: 'test/http/validation-cost.test.ts', project: 'timed', groupOrder: 1 },
      { path: 'test/package/git-install.test.ts', project: 'unit' },
      { path: 'test/store/redis-cli.test.ts', project: 'redis' },
      { path: 'test/core/a.test.ts', project: 'redis' },
    ]);
    expect(sorted).toEqual(['redis:test/store/redis-cli.test.ts', 'redis:test/core/a.test.ts', 'unit:test/package/git-install.test.ts', 'timed:test/http/validation-cost.test.ts']);
  });

  it('with cached durations, they decide', async () => {
    const sorted = await order([
      { path: 'test/package/git-install.test.ts', project: 'unit', cachedMs: 1_000 },
      { path: 'test/core/a.test.ts', project: 'unit', cachedMs: 500_000 },
    ]);
    expect(sorted).toEqual(['unit:test/core/a.test.ts', 'unit:test/package/git-install.test.ts']);
  });
});
