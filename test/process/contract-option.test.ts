// Issue 38, part 1: --contract FILE (MOCK_CONTRACT, startMock({ contract })) serves FILE at
// /openapi.yaml, validates by it and answers by it; a file the mock cannot serve is refused in one
// line naming FILE and its first problem, with exit 2, before the db is touched; the shipped
// openapi.yaml given as FILE changes nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock } from '../../src/index.js';
import { CONTRACT_FILE } from '../../src/contract/package-files.js';
import { MAX_CONTRACT_BYTES, MAX_CONTRACT_DEPTH } from '../../src/contract/contract-limits.js';
import { keptContract, keptUserContract } from '../../src/process/kept-files.js';
import { helpText } from '../../src/process/config.js';
import { runCli } from '../helpers/cli-process.js';
import { createLink } from '../toolkit/api-calls.js';

const FIXTURES = resolve('test/fixtures/contracts');
const fixture = (name: string): string => join(FIXTURES, name);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-contract-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI's refusal: exit 2, nothing on stdout, one stderr line that matches; the db never written. */
async function expectRefused(args: string[], line: RegExp, env: Record<string, string> = {}): Promise<void> {
  const db = join(dir, 'db.json');
  const result = await runCli(['--port', '0', '--db', db, ...args], dir, env);
  expect(result.code, `a refusal (stderr: ${JSON.stringify(result.stderr)})`).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n'), `stderr must be one line: ${JSON.stringify(result.stderr)}`).toHaveLength(1);
  expect(result.stderr.trimEnd()).toMatch(line);
  expect(existsSync(db), 'nothing is written to the db before the contract is accepted').toBe(false);
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const refusal = (file: string, problem: string): RegExp => new RegExp(`^shortlink-mock: cannot serve --contract ${escape(file)}: ${problem}$`);

describe('--contract FILE refused at start: exit 2, one line naming FILE and the first problem', () => {
  it.each([
    ['not-yaml.yaml', 'not YAML or JSON at line 7, column 1: unexpected end of the stream within a flow collection'],
    ['not-openapi.yaml', "not an OpenAPI document: it has no 'openapi' field"],
    ['swagger-2.json', 'Swagger 2\\.0 is not served: convert it to OpenAPI 3\\.0\\.x'],
    ['unsatisfiable.yaml', "cannot make a value of the Link field at /components/schemas/Link/properties/checksum that its schema allows \\(value must NOT have fewer than 12 characters\\): give it an example"],
    ['circular-field.yaml', "cannot make a value of the Link field at /components/schemas/Link/properties/redirectChain that its schema allows \\(.* must have required property 'next'\\): give it an example"],
    ['create-destination-removed.yaml', "/components/schemas/CreateLinkRequest/properties: createLink's request no longer has 'destinationUrl', which its rules need \\(D7\\)"],
    ['remote-ref.yaml', "line 309, column 11: \\$ref 'https://schemas\\.example\\.com/shortlink/domain\\.yaml#/Domain' at /components/schemas/Link/properties/domain is not local: .*"],
  ])('%s', async (name, problem) => {
    await expectRefused(['--contract', fixture(name)], refusal(fixture(name), problem));
  });

  it("the id path parameter renamed away: a change the rules cannot honour, one line per operation", async () => {
    const file = fixture('id-renamed.yaml');
    const result = await runCli(['--port', '0', '--db', ':memory:', '--contract', file], dir);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `shortlink-mock: cannot serve --contract ${file}: /paths/~1links~1{linkId}/put: updateLink names its link by another path parameter than 'id', which its rules read`,
      `cannot serve --contract ${file}: /paths/~1links~1{linkId}/delete: deleteLink names its link by another path parameter than 'id', which its rules read`,
    ]);
  });

  it('with --workers 2: refused once by the primary, before any worker starts or Redis is reached', async () => {
    const file = fixture('not-openapi.yaml');
    const result = await runCli(['--port', '0', '--workers', '2', '--db', 'redis://127.0.0.1:9', '--contract', file], dir);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd()).toBe(`shortlink-mock: cannot serve --contract ${file}: not an OpenAPI document: it has no 'openapi' field`);
  });

  it('a path that does not exist, given as MOCK_CONTRACT: the line names the variable', async () => {
    const file = join(dir, 'next.yaml');
    await expectRefused([], new RegExp(`^shortlink-mock: cannot serve MOCK_CONTRACT=${escape(file)}: no such file$`), { MOCK_CONTRACT: file });
  });

  it(`a file over ${MAX_CONTRACT_BYTES} bytes, refused before it is read`, async () => {
    const file = join(dir, 'huge.yaml');
    const shipped = readFileSync(CONTRACT_FILE, 'utf8');
    writeFileSync(file, shipped + `# ${'x'.repeat(MAX_CONTRACT_BYTES)}\n`);
    await expectRefused(['--contract', file], refusal(file, `it holds \\d+ bytes, over the limit of ${MAX_CONTRACT_BYTES}`));
  });

  it(`a document nested more than ${MAX_CONTRACT_DEPTH} levels deep (flow and block)`, async () => {
    const flow = join(dir, 'flow.yaml');
    writeFileSync(flow, `openapi: 3.0.3\nx: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
    await expectRefused(['--contract', flow], refusal(flow, `not YAML or JSON at line 2, column \\d+: nested more than ${MAX_CONTRACT_DEPTH} levels deep`));
    const block = join(dir, 'block.yaml');
    writeFileSync(block, Array.from({ length: 200 }, (_, level) => `${' '.repeat(level)}a${level}:`).join('\n') + ' 1\n');
    await expectRefused(['--contract', block], refusal(block, `not YAML or JSON at line \\d+, column \\d+: nested more than ${MAX_CONTRACT_DEPTH} levels deep`));
  });

  it('YAML aliases that expand past the bound of values', async () => {
    const file = join(dir, 'laughs.yaml');
    const levels = Array.from({ length: 9 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(10).fill(`*l${i}`).join(', ')}]`);
    writeFileSync(file, ['openapi: 3.0.3', 'paths: {}', 'l0: &l0 [lol]', ...levels].join('\n') + '\n');
    await expectRefused(['--contract', file], refusal(file, 'it stands for more than 2000000 values \\(YAML aliases expanded\\), the limit'));
  });

  it('a new operation whose example FILE itself refuses: it cannot be answered from its schema', async () => {
    const file = join(dir, 'bad-example.yaml');
    const stats = readFileSync(fixture('stats-added.yaml'), 'utf8').replace("description: Counts of the account.\n          content:\n            application/json:\n", "description: Counts of the account.\n          content:\n            application/json:\n              example: { links: -1, clicks: 0 }\n");
    writeFileSync(file, stats);
    await expectRefused(['--contract', file], refusal(file, 'cannot answer getStats \\(GET /stats\\) from its schema: the answer made /links must be >= 0; give it an example'));
  });

  it('a local $ref that names nothing, and a document OpenAPI itself refuses', async () => {
    const shipped = readFileSync(CONTRACT_FILE, 'utf8');
    const dangling = join(dir, 'dangling.yaml');
    writeFileSync(dangling, shipped.replace("$ref: '#/components/schemas/Domain'", "$ref: '#/components/schemas/Domian'"));
    await expectRefused(['--contract', dangling], refusal(dangling, "line \\d+, column \\d+: \\$ref '#/components/schemas/Domian' at /components/schemas/Link/properties/domain names nothing in the file"));
    const malformed = join(dir, 'malformed.yaml');
    writeFileSync(malformed, shipped.replace("$ref: '#/components/schemas/Domain'", "$ref: '#/components/schemas/%E0'"));
    await expectRefused(['--contract', malformed], refusal(malformed, "line \\d+, column \\d+: \\$ref '#/components/schemas/%E0' at /components/schemas/Link/properties/domain names nothing in the file"));
    const noResponses = join(dir, 'no-responses.yaml');
    writeFileSync(noResponses, 'openapi: 3.0.3\ninfo: {title: t, version: 0.0.3}\npaths:\n  /links:\n    get: {operationId: listLinks}\n');
    await expectRefused(['--contract', noResponses], refusal(noResponses, "not a valid OpenAPI 3\\.0\\.3 document: at '/paths/~1links/get' must have required property 'responses'"));
  });
});

describe('--contract FILE accepted', () => {
  it('is listed in --help', () => {
    expect(helpText()).toMatch(/--contract FILE +serve, validate against and answer by this OpenAPI .*\[env MOCK_CONTRACT\]/);
  });

  it('startMock({ contract }): FILE is served at /openapi.yaml and requests are validated by it (slug maxLength 20)', async () => {
    const file = fixture('slug-max-20.yaml');
    const slug = 'a'.repeat(21);
    const shipped = await startMock();
    const next = await startMock({ contract: file });
    try {
      // FILE as written, but for its servers: the address it was served from (src/http/served-contract.ts).
      const served = await (await fetch(`${next.url}/openapi.yaml`)).text();
      expect(served.replace(/\n {2}- url: .*\n.*\n/, '')).toBe(readFileSync(file, 'utf8').replace(/\n {2}- url: .*\n.*\n/, ''));
      expect(served).toContain('version: 0.0.3');
      expect((await createLink(shipped.url, shipped.apiKeys.demoKey, { slug })).status).toBe(201);
      const refused = await createLink(next.url, next.apiKeys.demoKey, { slug });
      expect(refused.status).toBe(400);
      expect(refused.body.errorDescription).toMatch(/slug.*20/);
      expect((await createLink(next.url, next.apiKeys.demoKey, { slug: 'a'.repeat(20) })).status).toBe(201);
    } finally {
      await Promise.all([shipped.stop(), next.stop()]);
    }
  });

  it('OpenAPI 3.1.x, which the validator (express-openapi-validator 5.6.2) supports: served and validated by', async () => {
    const mock = await startMock({ contract: fixture('openapi-3.1.yaml') });
    try {
      expect((await createLink(mock.url, mock.apiKeys.demoKey, { slug: 'a'.repeat(51) })).status).toBe(400);
      expect((await createLink(mock.url, mock.apiKeys.demoKey)).status).toBe(201);
    } finally {
      await mock.stop();
    }
  });

  it('a new Link field is stored in the db file: the same values after a restart', async () => {
    const db = join(dir, 'db.json');
    const first = await startMock({ contract: fixture('required-field.yaml'), db });
    const created = await createLink(first.url, first.apiKeys.demoKey);
    await first.stop();
    expect(readFileSync(db, 'utf8')).toContain(`"campaignCode":"${(created.body as unknown as Record<string, string>)['campaignCode']}"`);
    const second = await startMock({ contract: fixture('required-field.yaml'), db });
    try {
      const listed = (await (await fetch(`${second.url}/__admin/links?account=demo-key`)).json()) as { links: { id: string }[] };
      expect(listed.links.find((link) => link.id === created.body.id)).toEqual(created.body);
    } finally {
      await second.stop();
    }
  });

  it('startMock({ contract }) refused: a StartupError naming options.contract', async () => {
    await expect(startMock({ contract: fixture('not-openapi.yaml') })).rejects.toThrow(/^startMock: cannot serve options\.contract .*not-openapi\.yaml: not an OpenAPI document/);
  });

  it('the shipped openapi.yaml as FILE (a copy elsewhere included) is the very contract of a default start', () => {
    const copy = join(dir, 'openapi.yaml');
    writeFileSync(copy, readFileSync(CONTRACT_FILE, 'utf8'));
    expect(keptUserContract(CONTRACT_FILE, '--contract openapi.yaml')).toBe(keptContract());
    expect(keptUserContract(copy, `--contract ${copy}`)).toBe(keptContract());
  });
});
