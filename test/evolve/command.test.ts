// `shortlink-mock evolve` as a command: its exit codes (0 nobody breaks, 1 someone does, 2 bad
// input with one line), its --json and --junit files, and its bounds (exchanges read, findings kept)
// under hostile input. In process (runEvolveCommand), and once through the built CLI.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runEvolveCommand } from '../../src/commands/evolve.js';
import { MAX_CONTRACT_BYTES } from '../../src/contract/contract-limits.js';
import { MAX_CONSUMERS, MAX_FINDINGS_PER_CONSUMER, OTHER_CONSUMERS } from '../../src/commands/evolve/consumers.js';
import { MAX_EXCHANGES, MAX_JOURNAL_FILE_BYTES } from '../../src/commands/evolve/input.js';
import { CONTRACT_FILE } from '../../src/contract/package-files.js';
import type { JournalEntry } from '../../src/core/journal-types.js';
import { runCli } from '../helpers/cli-process.js';
import { edits, writeNext } from './edits.js';

const dir = mkdtempSync(join(tmpdir(), 'evolve-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const next = (name: string): string => writeNext(edits().find((edit) => edit.name === name) ?? edits()[0]!, dir);
const file = (name: string, text: string | Buffer): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

let seq = 0;
/** A journal entry of the SDK's create: a custom slug, answered 201. */
function createEntry(slug: string, account = 'acc_sdk'): JournalEntry {
  seq += 1;
  const link = { id: `lnk_${seq}`, createdAt: '2026-11-28T10:00:00.000Z', destinationUrl: 'https://example.com/a', slug, domain: { id: 'dom_1', name: 'short.test' }, shortUrl: `https://short.test/${slug}`, clickCount: 0, tags: [] };
  return { seq, time: '2026-11-28T10:00:00.000Z', method: 'POST', path: '/links', operationId: 'createLink', apiKey: 'key-****', accountId: account, status: 201, durationMs: 1, scenario: null, fault: null, verdict: 'ok', requestBody: { destinationUrl: 'https://example.com/a', domain: 'short.test', slug, tags: [] }, responseBody: link };
}
const journal = (entries: JournalEntry[], accounts: object[] = [{ id: 'acc_sdk', name: 'Acme SDK' }]): string => JSON.stringify({ size: entries.length, entries, accounts });

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (text: string) => void out.push(text), err: (text: string) => void err.push(text) } };
}

async function run(argv: string[], env: Record<string, string> = {}) {
  const captured = io();
  const code = await runEvolveCommand(argv, env, captured.io);
  return { code, stdout: captured.out.join('\n'), stderr: captured.err.join('\n') };
}

describe('exit codes and files', () => {
  it('exit 1 when a consumer breaks, with --json of the issue\'s shape and --junit of one testsuite per consumer', async () => {
    const journalFile = file('one.json', journal([createEntry('spring-sale-2026'), createEntry('abc')]));
    const json = join(dir, 'out', 'evolve.json');
    const junit = join(dir, 'out', 'evolve.xml');
    const result = await run(['--contract', next('b2-slug-max-length-5'), '--journal', journalFile, '--json', json, '--junit', junit]);
    expect(result.code).toBe(1);
    const written = JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown>;
    expect(written).toMatchObject({
      from: '0.0.2',
      to: '0.0.3',
      consumers: [{ consumer: 'Acme SDK', exchanges: 2, breaking: [{ operationId: 'createLink', method: 'POST', path: '/links', pointer: '/slug', reason: expect.stringContaining('maxLength'), count: 1, replay: expect.stringMatching(/^curl .*'\{"destinationUrl":"https:\/\/example.com\/a","domain":"short.test","slug":"spring-sale-2026","tags":\[\]\}'$/) }], changed: [] }],
      changes: [{ pointer: '/paths/~1links/post/requestBody/content/application~1json/schema/properties/slug', change: 'request body /slug: maxLength 50 → 5', breakingByRule: true, consumers: ['Acme SDK'] }],
    });
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="Acme SDK" tests="1" failures="1">');
    expect(xml).toContain('<testcase classname="Acme SDK" name="createLink"><failure message="1 breaking finding">');
  });

  it('exit 0 when no consumer breaks; a consumer of a saved journal without names is its account id', async () => {
    const journalFile = file('unnamed.json', journal([createEntry('abc', 'acc_x')], []));
    const result = await run(['--contract', next('a2-optional-request-note'), '--journal', journalFile]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('account acc_x: fine (1 exchange; 0 breaking, 0 changed)');
    expect(result.stdout).toContain('info  request-property-added: createLink: request body /note: optional property added — no consumer hit');
  });

  it('--pact takes several files, as repeated flags or listed after it; each pact names its consumer', async () => {
    const pact = (consumer: string, slug: string): string =>
      file(`${consumer}.json`, JSON.stringify({ consumer: { name: consumer }, provider: { name: 'shortlink-api' }, metadata: { pactSpecification: { version: '3.0.0' } }, interactions: [{ description: 'create', request: { method: 'POST', path: '/links', headers: { 'x-api-key': 'k', 'content-type': 'application/json' }, body: { destinationUrl: 'https://example.com/a', domain: 'short.test', slug, tags: [] } }, response: { status: 201 } }] }));
    const [long, short, third] = [pact('long-slugs', 'spring-sale-2026'), pact('short-slugs', 'abc'), pact('third', 'abcdef')];
    const result = await run(['--contract', next('b2-slug-max-length-5'), '--pact', long, short, '--pact', third]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('from 3 pacts');
    expect(result.stdout).toContain('BREAKING for 2 of 3 consumers: long-slugs, third');
  });

  it('--consumer-by header:NAME names consumers by a recorded header; one that is missing or not a string names none', async () => {
    const entries = [createEntry('abc'), createEntry('abc'), createEntry('abc')];
    entries[0]!.headers = { 'user-agent': 'acme-web/3.2' };
    (entries[1] as unknown as { headers: object }).headers = { 'user-agent': { not: 'a string' } };
    const json = join(dir, 'by-header.json');
    const result = await run(['--contract', CONTRACT_FILE, '--journal', file('by-header-journal.json', journal(entries)), '--consumer-by', 'header:User-Agent', '--json', json]);
    expect(result.code).toBe(0);
    const consumers = (JSON.parse(readFileSync(json, 'utf8')) as { consumers: Array<{ consumer: string; exchanges: number }> }).consumers;
    expect(consumers.map(({ consumer, exchanges }) => ({ consumer, exchanges }))).toEqual([
      { consumer: '(no user-agent)', exchanges: 2 },
      { consumer: 'acme-web/3.2', exchanges: 1 },
    ]);
  });

  it('through the built CLI: exit 1 and the report', async () => {
    const journalFile = file('cli.json', journal([createEntry('spring-sale-2026')]));
    const cli = await runCli(['evolve', '--contract', next('b2-slug-max-length-5'), '--journal', journalFile], dir);
    expect({ code: cli.code, stderr: cli.stderr }).toEqual({ code: 1, stderr: '' });
    expect(cli.stdout).toContain('evolve: openapi.yaml (0.0.2) → ');
    expect(cli.stdout).toContain('1 exchange of 1 consumer from journal file');
    expect(cli.stdout).toContain('Acme SDK: BREAKING (1 exchange; 1 breaking, 0 changed)');
    expect(cli.stdout).toContain('BREAKING for 1 of 1 consumer: Acme SDK');
  });

  it('a NEXT that is a FIFO is refused in one line, not waited on (read by the --contract loader)', { timeout: 60_000 }, async () => {
    const fifo = join(dir, 'next.fifo');
    execFileSync('mkfifo', [fifo]);
    const cli = await runCli(['evolve', '--contract', fifo, '--journal', file('fifo-journal.json', journal([createEntry('abc')]))], dir);
    expect({ code: cli.code, stderr: cli.stderr.trimEnd() }).toEqual({ code: 2, stderr: `shortlink-mock evolve: cannot read ${fifo}: it is not a regular file` });
  });
});

describe('bad input: exit 2 with one line', () => {
  const valid = (): string => file('valid.json', journal([createEntry('abc')]));
  const cases: Array<[string, () => string[], string]> = [
    ['no --contract', () => ['--journal', valid()], 'name the next contract with --contract NEXT'],
    ['two sources', () => ['--contract', CONTRACT_FILE, '--journal', valid(), '--pact', valid()], 'give one of --base-url, --journal or --pact'],
    ['a bad --consumer-by', () => ['--contract', CONTRACT_FILE, '--journal', valid(), '--consumer-by', 'cookie'], "--consumer-by must be header:NAME (e.g. header:user-agent), got 'cookie'"],
    ['a --consumer-by header the journal never keeps', () => ['--contract', CONTRACT_FILE, '--journal', valid(), '--consumer-by', 'header:X-Api-Key'], "--consumer-by header:X-Api-Key: the journal never keeps 'x-api-key'; it keeps only user-agent and x-client-* headers"],
    ['a --consumer-by header of no name in the x-client- family', () => ['--contract', CONTRACT_FILE, '--journal', valid(), '--consumer-by', 'header:x-client-'], "the journal never keeps 'x-client-'"],
    ['a --base-url that is no http(s) URL', () => ['--contract', CONTRACT_FILE, '--base-url', 'bad'], "--base-url must be an http(s) URL such as http://127.0.0.1:4010, got 'bad'"],
    ['an unknown flag', () => ['--contract', CONTRACT_FILE, '--strict'], "Unknown option '--strict'"],
    ['a NEXT that is not there', () => ['--contract', join(dir, 'missing.yaml'), '--journal', valid()], 'cannot read'],
    ['a NEXT that is not YAML', () => ['--contract', file('bad.yaml', 'a: [b\n'), '--journal', valid()], 'bad.yaml: not YAML or JSON at line 2, column 1'],
    ['a NEXT nested too deep', () => ['--contract', file('deep.yaml', `${'['.repeat(100)}${']'.repeat(100)}`), '--journal', valid()], 'nested more than 64 levels deep'],
    ['a NEXT of Swagger 2.0', () => ['--contract', file('swagger.json', '{"swagger": "2.0", "paths": {}}'), '--journal', valid()], 'swagger.json: Swagger 2.0 is not served'],
    ['a NEXT of OpenAPI 3.1', () => ['--contract', file('v31.yaml', readFileSync(CONTRACT_FILE, 'utf8').replace('openapi: 3.0.3', 'openapi: 3.1.0')), '--journal', valid()], 'v31.yaml: OpenAPI 3.1.0 is not judged: evolve reads OpenAPI 3.0.x'],
    ['a NEXT with a remote $ref', () => ['--contract', file('remote.yaml', readFileSync(CONTRACT_FILE, 'utf8').replace("$ref: '#/components/schemas/Link'", "$ref: 'https://example.com/link.yaml'")), '--journal', valid()], "$ref 'https://example.com/link.yaml' at /paths/~1links/post/responses/201/content/application~1json/schema is not local"],
    ['a NEXT with a $ref that names nothing', () => ['--contract', file('dangling.yaml', readFileSync(CONTRACT_FILE, 'utf8').replace("$ref: '#/components/schemas/Link'", "$ref: '#/components/schemas/Lynk'")), '--journal', valid()], "$ref '#/components/schemas/Lynk' at /paths/~1links/post/responses/201/content/application~1json/schema names nothing in the file"],
    ['a NEXT over the bound', () => ['--contract', file('huge.yaml', Buffer.alloc(MAX_CONTRACT_BYTES + 10, 0x20)), '--journal', valid()], `cannot read ${join(dir, 'huge.yaml')}: it holds ${MAX_CONTRACT_BYTES + 10} bytes, over the limit of ${MAX_CONTRACT_BYTES}`],
    ['a --from that is no contract', () => ['--contract', CONTRACT_FILE, '--from', file('from.json', '{"openapi": "3.0.3"}'), '--journal', valid()], "from.json: not an OpenAPI document: it has no 'paths' mapping"],
    ['a NEXT whose schemas cannot be compiled', () => ['--contract', file('bad-pattern.yaml', readFileSync(CONTRACT_FILE, 'utf8').replace("pattern: '^[A-Za-z0-9_-]*$'", "pattern: '^[A-Za-z0-9_-'")), '--journal', valid()], 'cannot be compiled'],
    ['a journal that is not JSON', () => ['--contract', CONTRACT_FILE, '--journal', file('j.txt', 'GET /links 200')], 'is not JSON'],
    ['a journal that is not a journal', () => ['--contract', CONTRACT_FILE, '--journal', file('j.json', '{"links": []}')], 'is not a journal'],
    ['a journal over the bound', () => ['--contract', CONTRACT_FILE, '--journal', file('big.json', Buffer.alloc(MAX_JOURNAL_FILE_BYTES + 10, 0x20))], `is larger than ${MAX_JOURNAL_FILE_BYTES / 1024 / 1024} MiB`],
    ['a pact that is not a pact', () => ['--contract', CONTRACT_FILE, '--pact', valid()], 'is not a pact'],
    ['no mock at --base-url', () => ['--contract', CONTRACT_FILE, '--base-url', 'http://127.0.0.1:9'], 'cannot read the journal of http://127.0.0.1:9'],
  ];
  it.each(cases)('%s', async (_name, argv, message) => {
    const result = await run(argv());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(message);
  });
});

describe('a bad MOCK_BASE_URL', () => {
  it('is named as the variable it came from, not as --base-url (exit 2, one line)', async () => {
    const result = await run(['--contract', CONTRACT_FILE], { MOCK_BASE_URL: 'bad' });
    expect(result).toEqual({ code: 2, stdout: '', stderr: "shortlink-mock evolve: MOCK_BASE_URL must be an http(s) URL such as http://127.0.0.1:4010, got 'bad' (see shortlink-mock evolve --help)" });
  });

  it('is not read when --base-url is given', async () => {
    const result = await run(['--contract', CONTRACT_FILE, '--base-url', 'ftp://x'], { MOCK_BASE_URL: 'bad' });
    expect(result.stderr).toContain("--base-url must be an http(s) URL such as http://127.0.0.1:4010, got 'ftp://x'");
  });
});

describe('bounds (hostile input)', () => {
  it(`reads at most ${MAX_EXCHANGES} exchanges and says how many were skipped`, async () => {
    const fault: Omit<JournalEntry, 'seq'> = { ...createEntry('abc'), status: null, fault: 'reset', verdict: 'fault', requestBody: null, responseBody: null };
    const entries = Array.from({ length: MAX_EXCHANGES + 5 }, (_, index) => ({ ...fault, seq: index + 1 }));
    const json = join(dir, 'skipped.json');
    const result = await run(['--contract', CONTRACT_FILE, '--journal', file('many.json', journal(entries)), '--json', json]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('5 more exchanges were not read (at most the first 100000 are judged)');
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ exchanges: 0, skipped: 5, unjudged: MAX_EXCHANGES });
  });

  it(`keeps at most ${MAX_FINDINGS_PER_CONSUMER} distinct findings per consumer, counting the rest`, async () => {
    const entries = Array.from({ length: MAX_FINDINGS_PER_CONSUMER + 7 }, (_, index) => createEntry(`slug-${index}`));
    const json = join(dir, 'findings.json');
    const result = await run(['--contract', next('b2-slug-max-length-5'), '--journal', file('findings-journal.json', journal(entries)), '--json', json]);
    expect(result.code).toBe(1);
    const [consumer] = (JSON.parse(readFileSync(json, 'utf8')) as { consumers: Array<{ breaking: unknown[]; findingsNotKept: number; exchanges: number }> }).consumers;
    expect({ kept: consumer?.breaking.length, notKept: consumer?.findingsNotKept, exchanges: consumer?.exchanges }).toEqual({ kept: MAX_FINDINGS_PER_CONSUMER, notKept: 7, exchanges: MAX_FINDINGS_PER_CONSUMER + 7 });
    expect(result.stdout).toContain('7 more distinct findings were counted but not kept');
    expect(result.stdout.split('\n').length).toBeLessThan(200);
  });

  it(`lists at most ${MAX_CONSUMERS} consumers, the rest folded into one`, async () => {
    const entries = Array.from({ length: MAX_CONSUMERS + 5 }, (_, index) => createEntry('abc', `acc_${index}`));
    const json = join(dir, 'consumers.json');
    const result = await run(['--contract', CONTRACT_FILE, '--journal', file('consumers-journal.json', journal(entries, [])), '--json', json]);
    expect(result.code).toBe(0);
    const consumers = (JSON.parse(readFileSync(json, 'utf8')) as { consumers: Array<{ consumer: string; exchanges: number }> }).consumers;
    expect(consumers).toHaveLength(MAX_CONSUMERS);
    expect(consumers.find((consumer) => consumer.consumer === OTHER_CONSUMERS)?.exchanges).toBe(6);
  });
});
