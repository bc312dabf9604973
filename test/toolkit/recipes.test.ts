// The recipes of the toolkit guide (docs/toolkit.md), run as their readers would run them from examples/: Vitest (a global
// setup shared by the files, and a file with a mock of its own), node:test, and Playwright (its
// globalSetup, and the CLI as its webServer), each with its own runner. The examples import 'shortlink-mock' itself (the package's own name, resolved
// through its "exports" to dist/), so they need `npm run build` first, as `npm test` does.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { freePort } from '../helpers/redis-process.js';
import { runExample } from './run-example.js';

const EXAMPLES = join(PACKAGE_ROOT, 'examples');
const BIN = (path: string): string => join(PACKAGE_ROOT, 'node_modules', ...path.split('/'));
const LIMIT_MS = 90_000;

/**
 * The webServer recipe as a consumer's project has it: the config and spec copied into a project
 * whose node_modules holds @playwright/test and, as `npx shortlink-mock` finds it, this build's CLI
 * (npx would look in the registry for a package not installed).
 */
function consumerProject(): string {
  const project = join(dir, 'consumer');
  mkdirSync(join(project, 'e2e'), { recursive: true });
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  mkdirSync(join(project, 'node_modules', '@playwright'), { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "type": "module", "private": true }\n');
  for (const file of ['playwright.web-server.config.ts', 'e2e/links.spec.ts']) copyFileSync(join(EXAMPLES, file), join(project, file));
  symlinkSync(join(PACKAGE_ROOT, 'node_modules', '@playwright', 'test'), join(project, 'node_modules', '@playwright', 'test'));
  writeFileSync(join(project, 'node_modules', '.bin', 'shortlink-mock'), `#!/bin/sh\nexec "${process.execPath}" "${join(PACKAGE_ROOT, 'dist', 'src', 'cli.js')}" "$@"\n`, { mode: 0o755 });
  return project;
}

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
    // Node 20 and 22 report in TAP when not on a terminal, Node 24 with its spec reporter.
    expect(result.output).toMatch(/[#ℹ] pass 2\n[#ℹ] fail 0/);
  });

  it('Playwright, globalSetup: the mock started in Playwright\'s process serves the spec at MOCK_URL, and is stopped after the run', async () => {
    const result = await runExample([BIN('@playwright/test/cli.js'), 'test', '-c', 'playwright.config.ts', '--reporter', 'line', '--output', join(dir, 'playwright-results')], EXAMPLES, LIMIT_MS);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/1 passed/);
  });

  it('Playwright, webServer: Playwright runs the CLI on the port given, waits for its health route, and the spec passes', async () => {
    const port = await freePort();
    const project = consumerProject();
    const result = await runExample([BIN('@playwright/test/cli.js'), 'test', '-c', 'playwright.web-server.config.ts', '--reporter', 'line', '--output', join(dir, 'playwright-results')], project, LIMIT_MS, { PW_MOCK_PORT: String(port) });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/1 passed/);
  });

  it('every example compiles with tsc --strict against the package\'s own types and Playwright\'s', async () => {
    const files = ['vitest.config.ts', 'vitest-global-setup.ts', 'vitest-shared-mock.test.ts', 'vitest-own-mock.test.ts', 'node-test.test.ts', 'playwright-global-setup.ts', 'playwright.config.ts', 'playwright.web-server.config.ts', 'e2e/links.spec.ts'];
    const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--skipLibCheck'];
    const result = await runExample([BIN('typescript/bin/tsc'), ...flags, ...files], EXAMPLES, LIMIT_MS);
    expect(result.code, result.output).toBe(0);
  });
});
