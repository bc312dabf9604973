// `--scenarios DIR` (startMock's `scenarios`) loads DIR's scenarios beside the built-in ones: a name
// in both is DIR's, and the log says so; `--no-builtin-scenarios` (noBuiltinScenarios) loads DIR
// only. Everything that lists scenarios agrees (GET /__admin/scenarios, --scenario, x-mock-scenario),
// and a --watch reload keeps the built-in ones and re-arms a rule the edit changed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { DEFAULT_SCENARIOS_DIR } from '../../src/contract/package-files.js';
import { configOf } from '../../src/toolkit/start-options.js';
import { eventually } from '../helpers/eventually.js';
import { createLink } from './api-calls.js';

const BUILT_IN = ['flaky-network', 'invalid-request', 'link-limit-reached', 'not-found', 'slow', 'unauthorized'];
const scenarioFile = (name: string, error: string, times = ''): string =>
  `name: ${name}\ndescription: ${name} from the test's directory\nrules:\n  - match: { operation: createLink }\n    error: ${error}\n${times}`;

let dir: string;
let mock: RunningMock | undefined;
let lines: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-scenarios-dir-'));
  lines = [];
  // 'slow' is also a built-in name: this directory's 'slow' answers 404 at once instead.
  writeFileSync(join(dir, 'slow.yaml'), scenarioFile('slow', 'not-found'));
  writeFileSync(join(dir, 'mine.yaml'), scenarioFile('mine', 'link-limit-reached', '    times: 1\n'));
});
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
  rmSync(dir, { recursive: true, force: true });
});

interface Listed {
  name: string;
  source: string;
}
const listed = async (running: RunningMock): Promise<Listed[]> => ((await (await fetch(`${running.url}/__admin/scenarios`)).json()) as { scenarios: Listed[] }).scenarios;
const createUnder = async (running: RunningMock, scenario: string): Promise<number> =>
  (await fetch(`${running.url}/links`, {
    method: 'POST',
    headers: { 'x-api-key': running.apiKeys.demoKey, 'content-type': 'application/json', 'x-mock-scenario': scenario },
    body: JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] }),
  })).status;

describe('--scenarios DIR', () => {
  it('loads the built-in scenarios and DIR\'s; a name in both is DIR\'s, and a start-up line says so', async () => {
    mock = await startMock({ scenarios: dir, quiet: false, log: (line) => lines.push(line) });
    const scenarios = await listed(mock);
    expect(scenarios.map((scenario) => scenario.name)).toEqual([...BUILT_IN, 'mine'].sort());
    expect(scenarios.find((scenario) => scenario.name === 'slow')?.source).toBe(join(dir, 'slow.yaml'));
    expect(scenarios.find((scenario) => scenario.name === 'not-found')?.source).toBe(join(DEFAULT_SCENARIOS_DIR, 'not-found.yaml'));
    expect(await createUnder(mock, 'not-found')).toBe(404);
    expect(await createUnder(mock, 'slow')).toBe(404);
    expect(await createUnder(mock, 'mine')).toBe(400);
    expect(lines).toContain(`scenario 'slow' from ${join(dir, 'slow.yaml')} replaces the built-in one`);
  });

  it('--scenario may name a built-in scenario or one of DIR\'s', async () => {
    mock = await startMock({ scenarios: dir, scenario: 'unauthorized' });
    expect((await createLink(mock.url, mock.apiKeys.demoKey)).status).toBe(401);
    await mock.stop();
    mock = await startMock({ scenarios: dir, scenario: 'mine' });
    expect((await createLink(mock.url, mock.apiKeys.demoKey)).status).toBe(400);
  });

  it('with noBuiltinScenarios (--no-builtin-scenarios): DIR\'s only, and a built-in name is unknown', async () => {
    mock = await startMock({ scenarios: dir, noBuiltinScenarios: true });
    expect((await listed(mock)).map((scenario) => scenario.name)).toEqual(['mine', 'slow']);
    expect(await createUnder(mock, 'not-found')).toBe(400);
  });

  it('noBuiltinScenarios without scenarios is refused: no scenario would be loaded', () => {
    expect(() => configOf({ noBuiltinScenarios: true })).toThrow(/^startMock: options\.noBuiltinScenarios needs options\.scenarios/);
  });

  it('--watch: a reload keeps the built-in scenarios, says again which DIR replaces, and an edited used-up rule fires again', async () => {
    mock = await startMock({ scenarios: dir, watch: true, quiet: false, log: (line) => lines.push(line) });
    const running = mock;
    expect(await createUnder(running, 'mine')).toBe(400);
    expect(await createUnder(running, 'mine')).toBe(201); // used up: times 1
    writeFileSync(join(dir, 'mine.yaml'), scenarioFile('mine', 'not-found', '    times: 1\n'));
    const reloaded = await eventually(async () => lines.filter((line) => line.startsWith('scenarios reloaded')), (found) => found.length > 0, 5_000);
    expect(reloaded[0]).toMatch(new RegExp(`^scenarios reloaded: 2 from ${dir} and 5 built in; scenario 'slow' from .*slow\\.yaml replaces the built-in one; \`times\` start over for the edited rules: 'mine' rule 1$`));
    expect((await listed(running)).map((scenario) => scenario.name)).toEqual([...BUILT_IN, 'mine'].sort());
    expect(await createUnder(running, 'not-found')).toBe(404);
    expect(await createUnder(running, 'mine')).toBe(404);
    expect(await createUnder(running, 'mine')).toBe(201);
  });
});
