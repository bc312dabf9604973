// Every request in the README and the guides of docs/ that shows its answer (`# → status body`), run
// in order against a mock with the default seed over real HTTP, must answer as shown; the scenarios
// guide's example scenario must load; and the CI pattern of the toolkit guide, run as written in
// bash, must wait for and stop its own mock.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../fixtures/seed.js';
import { createMock } from '../../src/process/mock.js';
import { PACKAGE_ROOT, packageVersion } from '../../src/contract/package-files.js';
import { memoryStore } from '../../src/store/file/data-store.js';
import { CLI, runBash } from '../helpers/cli-process.js';
import { isRunning } from '../helpers/process-tree.js';
import { markdownFiles, readMarkdown } from '../helpers/guides.js';
import { freePort } from '../helpers/redis-process.js';
import { builtInScenarios, contract, fixtures, loadScenarios } from '../helpers/test-app.js';

interface Example {
  /** The markdown file that shows it. */
  file: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
  expectedBody?: string;
}

const README_BASE = 'http://127.0.0.1:4010';
const readme = readMarkdown('README.md');
/** The error catalogue "Try it" runs in its order, on the state the ones before it left; the others change nothing. */
const FIRST = ['README.md', 'docs/try-it.md'];
const files = [...FIRST, ...markdownFiles().filter((file) => !FIRST.includes(file))];
const examples = files.flatMap((file) =>
  [...readMarkdown(file).matchAll(/```sh\n(curl [^\n]+)\n# → (\d{3})(?: (.+))?\n```/g)].map(([, command, status, body]) =>
    parseCurl(file, command ?? '', Number(status), body),
  ),
);

/** Splits a shell line on spaces, honouring single quotes (all the README uses). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

function parseCurl(file: string, command: string, status: number, expectedBody: string | undefined): Example {
  const words = shellWords(command).slice(1);
  const example: Example = { file, method: 'GET', url: '', headers: {}, status, ...(expectedBody ? { expectedBody } : {}) };
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? '';
    const next = (): string => words[++i] ?? '';
    if (word === '-X') example.method = next();
    else if (word === '-H') {
      const [name = '', ...value] = next().split(':');
      example.headers[name.trim()] = value.join(':').trim();
    } else if (word === '-d') example.body = next();
    else example.url = word;
  }
  return example;
}

/** The README's body with `…` as "anything", compared with the JSON the server sent. */
function bodyPattern(expected: string): RegExp {
  const parts = expected.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*?')}$`);
}

let server: Server;
let base: string;
beforeAll(async () => {
  const mock = await createMock({ store: memoryStore(), contract, fixtures, seed: DEFAULT_SEED, version: 'readme', scenarios: builtInScenarios });
  server = mock.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('has examples to check', () => {
  expect(examples.length).toBeGreaterThanOrEqual(15);
});

it.each(examples.map((example, index) => [index + 1, `${example.method} ${example.url}`, example.file, example] as const))(
  'example %i: %s answers as %s says',
  async (_index, _name, _file, example) => {
    expect(example.url.startsWith(README_BASE)).toBe(true);
    const res = await fetch(base + example.url.slice(README_BASE.length), {
      method: example.method,
      headers: example.headers,
      ...(example.body === undefined ? {} : { body: example.body }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(example.status);
    if (example.expectedBody) expect(JSON.stringify(JSON.parse(text))).toMatch(bodyPattern(example.expectedBody));
    else expect(text).toBe('');
  },
);

it('says in "Point your app" where an app lists links, as the API has no list, with an example of it', () => {
  const start = readme.indexOf('## Point your app');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  expect(section).toContain('The API has no list operation (`GET /links` is a `405`)');
  const listing = examples.find((example) => example.url.includes('/__admin/links?account=demo-key'));
  expect(listing && section.includes(listing.url)).toBe(true);
});

it('documents a scenario file that loads and checks against the contract', () => {
  const yaml = /## Writing a scenario[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readMarkdown('docs/scenarios.md'))?.[1];
  expect(yaml).toBeDefined();
  const dir = mkdtempSync(join(tmpdir(), 'slm-readme-'));
  try {
    writeFileSync(join(dir, 'example.yaml'), yaml ?? '');
    const [scenario] = loadScenarios(dir);
    expect(scenario?.name).toBe('checkout-flakes');
    expect(scenario?.rules).toHaveLength(4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("the toolkit guide's CI pattern, run as written in bash against the built CLI", () => {
  const script = /^## In CI: start it[^\n]*\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readMarkdown('docs/toolkit.md'))?.[1];
  let project: string | undefined;
  let decoy: Server | undefined;
  afterEach(async () => {
    // A mock the pattern failed to stop is still this test's: stop it by its PID.
    for (const pid of project ? processesIn(project) : []) process.kill(pid, 'SIGKILL');
    await new Promise<void>((resolve) => (decoy ? decoy.close(() => resolve()) : resolve()));
    if (project) rmSync(project, { recursive: true, force: true });
    [project, decoy] = [undefined, undefined];
  });

  it('waits for this very mock while another server answers health on the default port, and stops what it started', async () => {
    expect(script).toBeDefined();
    project = installedProject();
    decoy = await decoyOnDefaultPort();
    // After the script as written: print what it started (its last line, curl's, has no newline).
    const result = await runBash(`${script ?? ''}\necho; echo "started: mock=$mock url=$MOCK_URL"\n`, project);
    expect(result.code, result.stderr).toBe(0);
    // The mock's banner shares the script's output: the lines to read are found by their shape.
    const [, pid, url = ''] = /^started: mock=(\d+) url=(http:\/\/127\.0\.0\.1:\d+)$/m.exec(result.stdout) ?? [];
    expect(url, result.stdout).not.toBe('');
    expect(new URL(url).port).not.toBe('4010');
    const health = /^\{"status".*$/m.exec(result.stdout)?.[0] ?? '{}';
    expect(JSON.parse(health)).toMatchObject({ status: 'ok', version: packageVersion(), accounts: 3 });
    expect(result.stdout).not.toContain('decoy');
    // Stopped: no process of the script is left, the mock's PID is gone, and its port refuses.
    expect(processesIn(project)).toEqual([]);
    expect(isRunning(Number(pid))).toBe(false);
    await expect(fetch(`${url}/__admin/health`)).rejects.toThrow();
  });
});

describe("the contract guide's example, run as written in bash (its port set free)", () => {
  const script = /^Against the mock \(start it[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readMarkdown('docs/contract.md'))?.[1] ?? '';
  let project: string | undefined;
  afterEach(() => {
    for (const pid of project ? processesIn(project) : []) process.kill(pid, 'SIGKILL');
    if (project) rmSync(project, { recursive: true, force: true });
    project = undefined;
  });

  it('checks the mock it started, and stops it when the script ends', async () => {
    expect(script).toMatch(/^port=4010\n/);
    const port = await freePort();
    project = installedProject();
    const result = await runBash(script.replace(/^port=4010\n/, `port=${port}\n`), project);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\b0 failed\b/);
    expect(processesIn(project), 'left running by the script').toEqual([]);
    await expect(fetch(`http://127.0.0.1:${port}/__admin/health`)).rejects.toThrow();
  }, 60_000);
});

/** A project with shortlink-mock installed as npm installs it: the package and its bin link. */
function installedProject(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'slm-readme-ci-')));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(PACKAGE_ROOT, join(dir, 'node_modules', 'shortlink-mock'));
  symlinkSync(join('..', 'shortlink-mock', 'dist', 'src', 'cli.js'), join(dir, 'node_modules', '.bin', 'shortlink-mock'));
  chmodSync(CLI, 0o755); // as npm makes a bin executable when it links it
  return dir;
}

/** Another server that answers every request, health included, on 4010; undefined when something already listens there. */
function decoyOnDefaultPort(): Promise<Server | undefined> {
  const server = createServer((_req, res) => res.setHeader('content-type', 'application/json').end('{"status":"ok","decoy":true}'));
  return new Promise((resolve, reject) => {
    server.once('listening', () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)));
    server.listen(4010, '127.0.0.1');
  });
}

/** The processes whose working directory is `dir` (Linux; elsewhere none can be listed). */
function processesIn(dir: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  return entries.filter((pid) => {
    try {
      return readlinkSync(`/proc/${pid}/cwd`) === dir;
    } catch {
      return false; // gone meanwhile, or not ours to read
    }
  }).map(Number);
}
