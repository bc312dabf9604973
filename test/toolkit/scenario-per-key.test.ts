// useScenario(name, { apiKey }): a scenario scoped to one API key (PUT /__admin/scenario with
// "apiKey"), so test files sharing one mock do not disturb each other: other keys are unaffected,
// and a rule's `times` counts that key's requests only.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { DEFAULT_SCENARIOS_DIR } from '../../src/contract/package-files.js';
import { createLink } from './api-calls.js';

let dir: string;
let mock: RunningMock;
beforeAll(async () => {
  // The built-in scenarios, plus one whose only rule holds for the first create only.
  dir = mkdtempSync(join(tmpdir(), 'slm-toolkit-scenarios-'));
  cpSync(DEFAULT_SCENARIOS_DIR, dir, { recursive: true });
  writeFileSync(join(dir, 'first-create-fails.yaml'), ['name: first-create-fails', 'description: The first create answers 404.', 'rules:', '  - match: { operation: createLink }', '    error: not-found', '    times: 1', ''].join('\n'));
  mock = await startMock({ scenarios: dir });
});
afterAll(async () => {
  await mock.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await mock.reset();
});

it('a scenario for one key shapes that key\'s answers only, and null clears it', async () => {
  const [mine, theirs] = await Promise.all([mock.account(), mock.account()]);
  expect(await mock.useScenario('unauthorized', { apiKey: mine.apiKey })).toEqual({ active: 'unauthorized', apiKey: mine.apiKey });
  expect((await createLink(mock.url, mine.apiKey)).status).toBe(401);
  expect((await createLink(mock.url, theirs.apiKey)).status).toBe(201);
  expect((await mock.health()).scenario).toBeNull(); // the global scenario is untouched
  await mock.useScenario(null, { apiKey: mine.apiKey });
  expect((await createLink(mock.url, mine.apiKey)).status).toBe(201);
});

it('`times` counts per key: each key\'s first create fails once, whatever the other did', async () => {
  const [first, second] = await Promise.all([mock.account(), mock.account()]);
  await mock.useScenario('first-create-fails', { apiKey: first.apiKey });
  await mock.useScenario('first-create-fails', { apiKey: second.apiKey });
  expect((await createLink(mock.url, first.apiKey)).status).toBe(404);
  expect((await createLink(mock.url, second.apiKey)).status).toBe(404);
  expect((await createLink(mock.url, first.apiKey)).status).toBe(201);
  expect((await createLink(mock.url, second.apiKey)).status).toBe(201);
});

it('without apiKey, the scenario is global as before', async () => {
  const account = await mock.account();
  await mock.useScenario('unauthorized');
  try {
    expect((await createLink(mock.url, account.apiKey)).status).toBe(401);
    expect((await createLink(mock.url, mock.apiKeys.demoKey)).status).toBe(401);
  } finally {
    await mock.useScenario(null);
  }
});
