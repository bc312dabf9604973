// Every request in the README that shows its answer (`# → status body`), run in order against a
// mock with the default seed over real HTTP, must answer as shown; and the README's example
// scenario must load.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../fixtures/seed.js';
import { createMock } from '../../src/mock.js';
import { PACKAGE_ROOT } from '../../src/package-files.js';
import { memoryStore } from '../../src/store/data-store.js';
import { builtInScenarios, contract, fixtures, loadScenarios } from '../helpers/test-app.js';

interface Example {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
  expectedBody?: string;
}

const README_BASE = 'http://127.0.0.1:4010';
const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
const examples = [...readme.matchAll(/```sh\n(curl [^\n]+)\n# → (\d{3})(?: (.+))?\n```/g)].map(([, command, status, body]) =>
  parseCurl(command ?? '', Number(status), body),
);

/** Splits a shell line on spaces, honouring single quotes (all the README uses). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

function parseCurl(command: string, status: number, expectedBody: string | undefined): Example {
  const words = shellWords(command).slice(1);
  const example: Example = { method: 'GET', url: '', headers: {}, status, ...(expectedBody ? { expectedBody } : {}) };
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

it.each(examples.map((example, index) => [index + 1, `${example.method} ${example.url}`, example] as const))(
  'example %i: %s answers as the README says',
  async (_index, _name, example) => {
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

it('documents a scenario file that loads and checks against the contract', () => {
  const yaml = /### Writing a scenario[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
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
