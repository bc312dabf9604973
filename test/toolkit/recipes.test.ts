// The README's recipes, run as their readers would run them from examples/: Vitest (a global
// setup shared by the files, and a file with a mock of its own), node:test, and Playwright's
// globalSetup. The examples import 'shortlink-mock' itself (the package's own name, resolved
// through its "exports" to dist/), so they need `npm run build` first, as `npm test` does.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-files.js';
import { runExample } from './run-example.js';

const EXAMPLES = join(PACKAGE_ROOT, 'examples');
const BIN = (path: string): string => join(PACKAGE_ROOT, 'node_modules', ...path.split('/'));
const LIMIT_MS = 90_000;

let dir: string;
beforeAll(() => {
  for (const file of ['dist/src/index.js', 'dist/src/index.d.ts']) {
    if (!existsSync(join(PACKAGE_ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` first (npm test does)`);
  }
  dir = mkdtempSync(join(tmpdir(), 'slm-recipes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('recipes', { timeout: LIMIT_MS + 10_000 }, () => {
  it('Vitest: the global setup\'s mock serves a file on an account and a scenario of its own, and a file starts a mock of its own', async () => {
    const result = await runExample([BIN('vitest/vitest.mjs'), 'run'], EXAMPLES, LIMIT_MS);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Test Files +2 passed \(2\)/);
    expect(result.output).toMatch(/Tests +5 passed \(5\)/);
  });

  it('node:test: a file with a mock started in before() and stopped in after()', async () => {
    const result = await runExample(['--import', 'tsx', '--test', 'node-test.test.ts'], EXAMPLES, LIMIT_MS);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/# pass 2\n# fail 0/);
  });

  it('Playwright: the globalSetup starts a mock at MOCK_URL, and what it returns stops it', async () => {
    const before = process.env['MOCK_URL'];
    const setup = (await import(pathToFileURL(join(EXAMPLES, 'playwright-global-setup.ts')).href)) as { default: () => Promise<() => Promise<void>> };
    const teardown = await setup.default();
    try {
      const url = process.env['MOCK_URL'];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/__admin/health`)).status).toBe(200);
      await teardown();
      await expect(fetch(`${url}/__admin/health`)).rejects.toThrow();
    } finally {
      if (before === undefined) delete process.env['MOCK_URL'];
      else process.env['MOCK_URL'] = before;
    }
  });

  it('every example compiles with tsc --strict against the package\'s own types (Playwright\'s config against a stub: @playwright/test is not installed)', async () => {
    // Only the shape the config uses; the recipe's real check is that its globalSetup compiles against startMock's types.
    const stub = join(dir, 'playwright-test-stub.d.ts');
    writeFileSync(stub, "declare module '@playwright/test' {\n  export function defineConfig(config: { testDir?: string; globalSetup?: string; webServer?: { command: string; url: string; reuseExistingServer?: boolean } }): unknown;\n}\n");
    const files = ['vitest.config.ts', 'vitest-global-setup.ts', 'vitest-shared-mock.test.ts', 'vitest-own-mock.test.ts', 'node-test.test.ts', 'playwright-global-setup.ts', 'playwright.config.ts'];
    const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--skipLibCheck'];
    const result = await runExample([BIN('typescript/bin/tsc'), ...flags, stub, ...files], EXAMPLES, LIMIT_MS);
    expect(result.code, result.output).toBe(0);
  });
});
