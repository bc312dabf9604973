// Scenario files at load: every forced response checked against openapi.yaml, every file against
// the schema; a broken one refused with the file, the rule and the reason (in-process and by the
// real CLI); --watch reloads good edits and keeps the last good set on a broken one; the log line
// names the scenario that shaped the answer.
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { BUILT_IN_ERRORS } from '../../src/core/builtin-errors.js';
import { ScenarioRegistry } from '../../src/core/scenario-registry.js';
import type { Scenario } from '../../src/core/scenarios.js';
import { ScenarioError } from '../../src/scenarios/parse-scenario.js';
import { watchScenarios } from '../../src/scenarios/watch-scenarios.js';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.js';
import { expectError } from '../helpers/contract-assert.js';
import { builtInScenarios, createTestApp, DEMO, loadScenarios } from '../helpers/test-app.js';

let dir: string;
let running: CliProcess | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-scenarios-'));
});
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const write = (file: string, text: string): string => {
  writeFileSync(join(dir, file), text);
  return join(dir, file);
};
const yamlRule = (rule: string): string => `name: broken\ndescription: a broken scenario\nrules:\n  - match: { operation: createLink }\n    error: not-found\n${rule}`;
const refusal = (): ScenarioError => {
  try {
    loadScenarios(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return error as ScenarioError;
  }
  throw new Error('the directory was accepted');
};

describe('a broken scenario file is refused with the file, the rule and the reason', () => {
  test.each([
    ['400 on deleteLink', '  - match: { operation: deleteLink }\n    respond: { status: 400, body: { errorDescription: x } }\n', /rule 2: .*deleteLink.*status 400 is not documented for deleteLink/],
    ["'*' with 400", "  - match: { operation: '*' }\n    error: invalid-request\n", /rule 2: .*status 400 is not documented for deleteLink/],
    ['418 on createLink', '  - match: { operation: createLink }\n    respond: { status: 418, body: { errorDescription: x } }\n', /rule 2: .*status 418 is not documented for createLink/],
    ['204 with a body on deleteLink', '  - match: { operation: deleteLink }\n    respond: { status: 204, body: { errorDescription: x } }\n', /rule 2: .*deleteLink.*no body/],
    ['body without errorDescription', '  - match: { operation: createLink }\n    respond: { status: 404, body: { message: x } }\n', /rule 2: .*errorDescription/],
    ['body with an extra field', '  - match: { operation: createLink }\n    respond: { status: 404, body: { errorDescription: x, extra: 1 } }\n', /rule 2: .*(additional|extra)/],
    ["code 'NOPE'", '  - match: { operation: createLink }\n    respond: { status: 400, body: { errorDescription: x, code: NOPE } }\n', /rule 2: .*code/],
    ['unknown operation', '  - match: { operation: getLink }\n    error: not-found\n', /rule 2: unknown operation 'getLink'/],
    ['delay min over max', '  - match: { operation: createLink }\n    delay: { min: 900, max: 100 }\n', /rule 2: delay min \(900\) is over max \(100\)/],
  ])('%s', (_name, rule, reason) => {
    const file = write('broken.yaml', yamlRule(rule));
    const error = refusal();
    expect(error.message.startsWith(file), error.message).toBe(true);
    expect(error.message).toMatch(reason);
  });

  // Shape errors (scenarios/scenario.schema.json): the file, where in it, and why.
  test.each([
    ['missing name', 'description: d\nrules:\n  - match: { operation: createLink }\n    error: not-found\n', /name/],
    ['respond and fault together', yamlRule('  - match: { operation: createLink }\n    fault: connection-reset\n    respond: { status: 404, body: { errorDescription: x } }\n'), /rules\/1|rule 2/],
    ['times 0', yamlRule('  - match: { operation: createLink }\n    error: not-found\n    times: 0\n'), /rules\/1\/times.*>= 1|rule 2.*times/],
    ['a rule that does nothing', yamlRule('  - match: { operation: createLink }\n'), /rules\/1|rule 2/],
    ['unknown fault', yamlRule('  - match: { operation: createLink }\n    fault: meltdown\n'), /rules\/1|rule 2/],
    ['bad YAML', 'name: [unclosed\n', /cannot parse/],
    ['bad JSON', '{"name": ', /cannot parse/],
  ])('%s', (name, text, reason) => {
    const file = write(name === 'bad JSON' ? 'broken.json' : 'broken.yaml', text);
    const error = refusal();
    expect(error.message.startsWith(file), error.message).toBe(true);
    expect(error.message).toMatch(reason);
  });

  test('respond and fault together: the reason says they exclude each other', () => {
    write('broken.yaml', yamlRule('  - match: { operation: createLink }\n    fault: connection-reset\n    respond: { status: 404, body: { errorDescription: x } }\n'));
    expect(refusal().message).toMatch(/respond.*fault|fault.*respond|only one|at most one|exclusive/i);
  });

  test('the same name in two files is refused, naming both', () => {
    const first = write('a.yaml', 'name: twin\ndescription: one\nrules:\n  - match: { operation: createLink }\n    error: not-found\n');
    const second = write('b.json', JSON.stringify({ name: 'twin', description: 'two', rules: [{ match: { operation: 'deleteLink' }, error: 'not-found' }] }));
    const message = refusal().message;
    expect(message).toContain(first);
    expect(message).toContain(second);
    expect(message).toMatch(/'twin'/);
  });

  test('a missing directory is a ScenarioError that names it', () => {
    expect(() => loadScenarios(join(dir, 'missing'))).toThrow(ScenarioError);
    expect(() => loadScenarios(join(dir, 'missing'))).toThrow(/missing/);
  });
});

describe('valid files', () => {
  test('JSON, .yaml and .yml are all read; other files and the schema file are ignored; error: shorthand is the built-in error', () => {
    write('a.json', JSON.stringify({ name: 'from-json', description: 'j', rules: [{ match: { operation: 'createLink' }, respond: { status: 404, body: { errorDescription: 'custom' } } }] }));
    write('b.yaml', "name: from-yaml\ndescription: y\nrules:\n  - match: { operation: '*' }\n    error: not-found\n    times: 3\n");
    write('c.yml', 'name: from-yml\ndescription: z\nrules:\n  - match: { operation: createLink }\n    error: link-limit-reached\n  - match: { operation: [updateLink] }\n    delay: 250\n');
    write('README.md', 'not a scenario');
    write('scenario.schema.json', '{"not": "a scenario"}');
    const scenarios = loadScenarios(dir);
    expect(scenarios.map((s) => s.name)).toEqual(['from-json', 'from-yaml', 'from-yml']);
    expect(scenarios[0]?.rules[0]).toEqual({ match: { operations: ['createLink'] }, respond: { status: 404, body: { errorDescription: 'custom' } } });
    expect(scenarios[1]?.rules[0]).toEqual({ match: { operations: '*' }, respond: BUILT_IN_ERRORS['not-found'], times: 3 });
    expect(scenarios[2]?.rules).toEqual([
      { match: { operations: ['createLink'] }, respond: BUILT_IN_ERRORS['link-limit-reached'] },
      { match: { operations: ['updateLink'] }, delay: { minMs: 250, maxMs: 250 } },
    ]);
    expect(scenarios[2]?.source).toBe(join(dir, 'c.yml'));
  });
});

describe('forced responses still pass through response validation', () => {
  const broken = (name: string, operation: string, status: number, body: Record<string, unknown>): Scenario => ({
    name,
    description: 'built as an object, so the load-time check never saw it',
    source: 'load.test.ts',
    rules: [{ match: { operations: [operation] }, respond: { status, body: body as { errorDescription: string } } }],
  });
  test.each([
    ['teapot', 'createLink', 418, { errorDescription: 'x' }],
    ['extra-field', 'createLink', 404, { errorDescription: 'x', extra: 1 }],
    ['no-description', 'createLink', 404, { message: 'x' }],
  ] as const)('%s: the client never sees the contract-breaking answer', async (name, operation, status, body) => {
    const lines: string[] = [];
    const t = await createTestApp({ scenarios: [...builtInScenarios, broken(name, operation, status, body)], log: (l) => lines.push(l) });
    const res = await t.request.post('/links').set({ 'x-api-key': DEMO, 'x-mock-scenario': name }).send({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] });
    expectError(res, 500, { mentions: /contract/ });
    expect(lines.some((l) => l.startsWith('CONTRACT VIOLATION'))).toBe(true);
  });
});

describe('watchScenarios (in-process)', () => {
  test('a broken edit keeps the last good set; a deleted active scenario is switched off with a warning', async () => {
    const scenario = (name: string, error = 'not-found'): string => `name: ${name}\ndescription: d\nrules:\n  - match: { operation: createLink }\n    error: ${error}\n`;
    write('a.yaml', scenario('a'));
    const registry = new ScenarioRegistry(loadScenarios(dir));
    registry.setActive('a', 'test');
    const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
    const nextLine = (pattern: RegExp): Promise<string> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no log line ${String(pattern)}`)), 5_000);
        waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      });
    const watcher = watchScenarios(dir, loadScenarios, registry, (line) => waiters.filter((w) => w.pattern.test(line)).forEach((w) => w.resolve(line)));
    try {
      let line = nextLine(/^scenarios reloaded: 2 /);
      write('b.yaml', scenario('b', 'unauthorized'));
      await line;
      expect(registry.names()).toEqual(['a', 'b']);
      line = nextLine(/NOT reloaded/);
      const file = write('b.yaml', scenario('b', 'nonsense'));
      expect(await line).toContain(file);
      expect(registry.get('b', 'test').rules[0]?.respond?.status).toBe(401);
      expect((await registry.active())?.name).toBe('a');
      line = nextLine(/^scenarios reloaded: 2 /);
      write('b.yaml', scenario('b', 'invalid-request'));
      await line;
      expect(registry.get('b', 'test').rules[0]?.respond?.status).toBe(400);
      line = nextLine(/^scenarios reloaded: 1 /);
      unlinkSync(join(dir, 'a.yaml'));
      expect(await line).toMatch(/active scenario 'a' is no longer defined/);
      expect(await registry.active()).toBeUndefined();
    } finally {
      watcher.close();
    }
  });
});

describe('the log line names the scenario that shaped the answer', () => {
  test.each([
    [{ 'x-mock-scenario': 'not-found' }, / 404 [\d.]+ms scenario=not-found$/],
    [{ 'x-mock-scenario': 'slow' }, / 201 [\d.]+ms scenario=slow$/],
    [{ prefer: 'code=401' }, / 401 [\d.]+ms scenario=prefer-code-401$/],
    [{}, / 201 [\d.]+ms$/],
  ])('%j', async (headers, line) => {
    const lines: string[] = [];
    const t = await createTestApp({ log: (l) => lines.push(l), sleep: async () => {} });
    const body = { destinationUrl: 'https://example.com', domain: 'short.test', tags: [] };
    await t.request.post('/links').set({ 'x-api-key': DEMO, ...headers }).send(body);
    const logged = lines.filter((l) => l.startsWith('POST /links '));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(line);
  });
});

describe('the real CLI', () => {
  test('refuses to start on a broken scenario file: exit 2, one stderr line naming the file and the rule', async () => {
    write('good.yaml', 'name: good\ndescription: fine\nrules:\n  - match: { operation: createLink }\n    error: not-found\n');
    const file = write('bad.yaml', yamlRule('  - match: { operation: deleteLink }\n    error: invalid-request\n'));
    const { code, stdout, stderr } = await runCli(['--scenarios', dir, '--db', ':memory:'], dir);
    expect(code).toBe(2);
    expect(stdout).not.toMatch(/listening on/);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(file);
    expect(lines[0]).toMatch(/rule 2/);
    expect(lines[0]).toMatch(/status 400 is not documented for deleteLink/);
  });

  test('--scenarios DIR serves the built-in scenarios too: a line (even with --quiet) names the one DIR replaces, and the banner counts both', async () => {
    write('slow.yaml', 'name: slow\ndescription: 404 at once\nrules:\n  - match: { operation: createLink }\n    error: not-found\n');
    write('mine.yaml', 'name: mine\ndescription: mine\nrules:\n  - match: { operation: createLink }\n    error: unauthorized\n');
    running = await startCli(['--scenarios', dir, '--db', ':memory:', '--quiet'], dir);
    await running.waitForOutput(/per request: x-mock-scenario/);
    const output = running.output();
    expect(output).toContain(`scenario 'slow' from ${join(dir, 'slow.yaml')} replaces the built-in one\n`);
    const banner = /scenarios {2}(.*)/.exec(output)?.[1];
    expect(banner).toBe(`7 loaded: 5 built in and 2 from ${dir} (a name in both is DIR's) (flaky-network, invalid-request, link-limit-reached, mine, not-found, slow, unauthorized); active: none; per request: x-mock-scenario: <name>`);
  });

  test('refuses an unknown --scenario, listing the known ones', async () => {
    const { code, stderr } = await runCli(['--scenario', 'nope', '--db', ':memory:'], dir);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown scenario 'nope'.*not-found/);
  });

  test('--scenario makes a built-in scenario global from the start', async () => {
    running = await startCli(['--scenario', 'not-found', '--db', ':memory:'], dir);
    const res = await fetch(`${running.url}/links`, { method: 'POST', headers: { 'x-api-key': DEMO, 'content-type': 'application/json' }, body: JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] }) });
    expect(res.status).toBe(404);
    expect(await (await fetch(`${running.url}/__admin/scenarios`)).json()).toMatchObject({ active: 'not-found' });
  });

  test('--watch: new and edited files reload without a restart; a broken edit keeps the last good set and says why', async () => {
    write('first.yaml', 'name: first\ndescription: 404 on create\nrules:\n  - match: { operation: createLink }\n    error: not-found\n');
    running = await startCli(['--scenarios', dir, '--watch', '--db', ':memory:'], dir);
    const cli = running;
    /** Waits for a line that arrives after this point (not an earlier line of the same kind). */
    const next = (pattern: string): Promise<void> => cli.waitForOutput(new RegExp(`^[\\s\\S]{${cli.output().length}}[\\s\\S]*${pattern}`));
    const createUnder = async (scenario: string): Promise<Response> =>
      fetch(`${cli.url}/links`, {
        method: 'POST',
        headers: { 'x-api-key': DEMO, 'content-type': 'application/json', 'x-mock-scenario': scenario },
        body: JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] }),
      });
    expect((await createUnder('second')).status).toBe(400);

    const added = next('scenarios reloaded');
    write('second.yaml', 'name: second\ndescription: 401 on create\nrules:\n  - match: { operation: createLink }\n    error: unauthorized\n');
    await added;
    expect((await createUnder('second')).status).toBe(401);

    const edited = next('scenarios reloaded');
    write('first.yaml', 'name: first\ndescription: now LINK_LIMIT_REACHED\nrules:\n  - match: { operation: createLink }\n    error: link-limit-reached\n');
    await edited;
    const limited = await createUnder('first');
    expect(limited.status).toBe(400);
    expect(await limited.json()).toMatchObject({ code: 'LINK_LIMIT_REACHED' });

    const refused = next('NOT reloaded.*\\n');
    const broken = write('second.yaml', 'name: second\ndescription: broken\nrules:\n  - match: { operation: deleteLink }\n    error: invalid-request\n');
    await refused;
    const line = /.*NOT reloaded.*/.exec(cli.output())?.[0] ?? '';
    expect(line).toContain(broken);
    expect(line).toMatch(/rule 1: .*status 400 is not documented for deleteLink/);
    expect((await createUnder('second')).status).toBe(401);
    expect((await createUnder('first')).status).toBe(400);
  });
});
