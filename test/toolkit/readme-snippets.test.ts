// The TypeScript examples of the guide "Use it from your tests" (docs/toolkit.md; the README's is a
// copy of its first, test/docs/readme.test.ts), run as written (only their import of
// 'shortlink-mock' points at this build): each must run to its end without an error.
// The one that connects to "the run's one mock" gets one, started here, through MOCK_URL.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { readMarkdown } from '../helpers/guides.js';
import { runExample } from './run-example.js';

const LIMIT_MS = 60_000;
const guide = readMarkdown('docs/toolkit.md');
const section = guide.slice(guide.indexOf('# Use it from your tests'), guide.indexOf('## Recipes'));
const snippets = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map(([, code]) => code ?? '');

let dir: string;
let shared: RunningMock;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slm-readme-ts-'));
  shared = await startMock();
});
afterAll(async () => {
  await shared.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the toolkit guide\'s TypeScript examples', { timeout: LIMIT_MS + 10_000 }, () => {
  it('there are two, each importing the package by its name', () => {
    expect(snippets).toHaveLength(2);
    for (const snippet of snippets) expect(snippet).toMatch(/from 'shortlink-mock';/);
  });

  it.each(snippets.map((snippet, i) => [i + 1, snippet] as const))('example %i runs to its end', async (n, snippet) => {
    const index = pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', 'index.js')).href;
    const file = join(dir, `example-${n}.mts`);
    writeFileSync(file, `${snippet.replace(/from 'shortlink-mock';/g, `from '${index}';`)}\nconsole.log('example ${n} done');\nprocess.exit(0);\n`);
    const result = await runExample(['--import', 'tsx', file], PACKAGE_ROOT, LIMIT_MS, { MOCK_URL: shared.url });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain(`example ${n} done`);
  });
});
