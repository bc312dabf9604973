// The order the suite's files start in. Vitest starts the longest files first only when its cache
// (node_modules/.vite/vitest/results.json) holds their durations from an earlier run; on a fresh
// clone, in CI, it has none and starts the largest files first. The longest ones here are small
// files that wait on npm installs or hundreds of child processes, so they started last and ran on
// alone at the end: the wall of a fresh `npm test` was 30-60 s longer than the same run with a
// cache (docs/development.md, "Where the suite's time goes"). Without a cached duration, a file's
// weight is its wall in SLOW_FILES, so the long files start first on every machine.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Wall seconds of the slowest files in a whole run on the 2-core machine (SHORTLINK_MOCK_CPU_LOG's
 * column 4; 26 Nov 2026, after the day's cuts). Only their order matters; a file not listed weighs nothing.
 */
export const SLOW_FILES: Readonly<Record<string, number>> = {
  'test/package/git-install.test.ts': 64,
  'test/robustness/brittle-clients.test.ts': 47,
  'test/package/pack-install.test.ts': 47,
  'test/store/redis-cli.test.ts': 26,
  'test/process/corrupt-db.test.ts': 26,
  'test/toolkit/recipes.test.ts': 24,
  // Not from the 26 Nov run (the file is newer): its wall alone on the loaded machine, 28 Nov 2026.
  'test/mcp/mcp-stdio.test.ts': 22,
  'test/e2e/console.test.ts': 19,
  'test/store/redis-socket.test.ts': 17,
  'test/robustness/runner.test.ts': 16,
  'test/process/cli.test.ts': 16,
  'test/contract/vitest-wrapper.test.ts': 13,
  'test/store/redis-instances.test.ts': 10,
  'test/contract/catches-broken.test.ts': 8,
  'test/process/robustness-cli.test.ts': 7,
  'test/contract/command.test.ts': 7,
  'test/store/redis-big-account-pages.test.ts': 6,
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's own order keeps what it must: group order, then one project after another.
    const base = await super.sort(files);
    const position = new Map(base.map((file, index) => [file, index]));
    const blocks = new Map<string, number>();
    const block = (file: TestSpecification): number => {
      const key = `${file.project.config.sequence.groupOrder}\0${file.project.name}`;
      if (!blocks.has(key)) blocks.set(key, blocks.size);
      return blocks.get(key) ?? 0;
    };
    for (const file of base) block(file);
    return [...base].sort((a, b) => block(a) - block(b) || this.weight(b) - this.weight(a) || (position.get(a) ?? 0) - (position.get(b) ?? 0));
  }

  /** Milliseconds: the cached duration of the file's last run, else its SLOW_FILES wall, else 0. */
  private weight(file: TestSpecification): number {
    const path = relative(this.ctx.config.root, file.moduleId);
    const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`)?.duration;
    return cached ?? (SLOW_FILES[path] ?? 0) * 1000;
  }
}
