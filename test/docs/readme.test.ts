// The README fits a first read, every relative link of the README and of the guides in docs/ lands
// on a file and a heading that exist, and each example the README shows is one a guide holds (where
// a test runs it) or one a test runs from the README itself.
import { readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownFiles, readMarkdown, REPOSITORY_ROOT } from '../helpers/guides.js';
import { brokenLinks, type Files } from './markdown-links.js';

const README_MAX_LINES = 300;

const repository: Files = {
  resolve: (from, target) => posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(target))),
  read: (path) => {
    try {
      const stat = statSync(`${REPOSITORY_ROOT}${path}`);
      return stat.isFile() && path.endsWith('.md') ? readFileSync(`${REPOSITORY_ROOT}${path}`, 'utf8') : '';
    } catch {
      return undefined;
    }
  },
};

/** The fenced code blocks of a markdown text, without their fences. */
function codeBlocks(text: string): string[] {
  return [...text.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map(([, code]) => code ?? '');
}

/** README blocks a test runs from the README itself (test/setup/ci-run.test.ts, test/process/readme.test.ts). */
const RUN_FROM_THE_README = ['npm ci && npm start\n', 'npm ci && npm test\n', "curl -s 'http://127.0.0.1:4010/__admin/links?account=demo-key&limit=1'\n"];

describe('the README and the guides', () => {
  const readme = readMarkdown('README.md');

  it(`the README is under ${README_MAX_LINES} lines`, () => {
    expect(readme.split('\n').length).toBeLessThan(README_MAX_LINES);
  });

  it('has a guide per topic, each linked from the README', () => {
    const guides = markdownFiles().filter((path) => path.startsWith('docs/'));
    expect(guides.length).toBeGreaterThanOrEqual(10);
    for (const guide of guides) expect(readme, guide).toContain(`](${guide})`);
  });

  it.each(markdownFiles())('every relative link of %s names an existing file and heading', (path) => {
    expect(brokenLinks(path, readMarkdown(path), repository)).toEqual([]);
  });

  // `npx … &` or `npm start &`: `$!` is npm's process, and `kill $!` leaves the mock running (issue 37, C8).
  it.each(markdownFiles())('no example of %s starts the mock in the background through npm or npx', (path) => {
    const throughNpm = codeBlocks(readMarkdown(path))
      .flatMap((block) => block.split('\n'))
      .filter((line) => /^\s*(npx|npm)\s[^#]*[^&]&\s*(#.*)?$/.test(line));
    expect(throughNpm).toEqual([]);
  });

  it("the Redis guide gives the operator's part (starting instances, Redis down) before how it works", () => {
    const guide = readMarkdown('docs/redis.md');
    const at = (text: string): number => guide.indexOf(text);
    expect(at('**When Redis is down.**')).toBeGreaterThan(at('Three instances on one Redis'));
    expect(at('## How it works')).toBeGreaterThan(at('**When Redis is down.**'));
    expect(at('**One step per create.**')).toBeGreaterThan(at('## How it works'));
  });

  // Issue 37, C5: what a first hour of use asked and the guides did not say.
  it('the quick start says how to pick another port, in the form test/process/npm-start.test.ts runs (npm start -- --port N)', () => {
    const start = readme.indexOf('## Quick start');
    const quickStart = readme.slice(start, readme.indexOf('\n## ', start + 1));
    expect(quickStart).toMatch(/`npm start -- --port \d+`/);
  });

  it('the toolkit guide names what startMock() returns (RunningMock, exported by the package), what the Vitest recipe needs of package.json, and whether the install-scripts warning matters', () => {
    const guide = readMarkdown('docs/toolkit.md');
    expect(guide).toMatch(/`startMock\([^`]*\)` returns a `RunningMock`/);
    expect(readFileSync(`${REPOSITORY_ROOT}src/index.ts`, 'utf8')).toMatch(/export \{ startMock, type RunningMock \}/);
    const vitest = guide.slice(guide.indexOf('- **Vitest, one mock for the run**'), guide.indexOf('- **node:test**'));
    expect(vitest).toContain('`"type": "module"`');
    expect(guide).toContain('npm warn install-scripts   @pactflow/swagger-mock-validator@');
  });

  it("each of the README's examples is a guide's, or one a test runs from the README", () => {
    const guides = markdownFiles().filter((path) => path.startsWith('docs/')).map(readMarkdown).join('\n');
    const orphans = codeBlocks(readme).filter((block) => !guides.includes(block) && !RUN_FROM_THE_README.some((run) => block.startsWith(run)));
    expect(orphans).toEqual([]);
  });
});
