// `shortlink-mock pact check` as a user runs it: the built CLI (dist/, npm test builds first) as its
// own process, so the engine is found from the compiled module as it is in an installed package.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process.js';
import { fixturePath } from './pact-fixtures.js';

const cwd = mkdtempSync(join(tmpdir(), 'slm-pact-cli-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

it('exit 0 for a pact that keeps the contract, 1 for one that does not, each with its report', async () => {
  const good = await runCli(['pact', 'check', fixturePath('good-v4.json')], cwd);
  expect({ code: good.code, stderr: good.stderr }).toEqual({ code: 0, stderr: '' });
  expect(good.stdout).toContain('All 3 interactions keep the contract.');
  const bad = await runCli(['pact', 'check', fixturePath('undocumented-status.json')], cwd);
  expect(bad.code).toBe(1);
  expect(bad.stdout).toContain('response status: 409 is not documented for this operation (documented: 201, 400, 401, 404)  [swagger-mock-validator]');
});

it('exit 2 for a bad flag, with the way to the help', async () => {
  const run = await runCli(['pact', 'check', fixturePath('good-v3.json'), '--strict'], cwd);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("shortlink-mock pact check: Unknown option '--strict'");
  expect(run.stderr).toContain('(see shortlink-mock pact check --help)');
});
