// `shortlink-mock pact check` in process: its exit codes (0 all kept, 1 a mismatch or a pact that
// cannot be read, 2 a bad flag), its report text, --contract, --junit and --help.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { CONTRACT_FILE } from '../../src/contract/package-files.js';
import { runPactCheck } from '../../src/pact/check-command.js';
import { fixture, fixturePath } from './pact-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'slm-pact-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runPactCheck(argv, {}, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('exit 0 and the report when every interaction keeps the contract', () => {
  it('prints one line per interaction', async () => {
    const file = fixturePath('good-v3.json');
    const { code, out, err } = await run(file);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out.split('\n')).toEqual([
      `pact check: links-web → short-link-api (${file}, Pact V3, 7 interactions)`,
      'against Short-Link Management API 0.0.2 (openapi.yaml of shortlink-mock)',
      '',
      '  ok    a new link on the default domain (POST /links → 201, createLink)',
      '  ok    a new destination for a link (PUT /links/lnk_V2xq9TbL3mKz8RcA → 200, updateLink)',
      '  ok    a link deleted (DELETE /links/lnk_V2xq9TbL3mKz8RcA → 204, deleteLink)',
      '  ok    a new link when the account is at its limit (POST /links → 400, createLink)',
      '  ok    a new link without an API key (POST /links → 401, createLink)',
      '  ok    an update of a link that does not exist (PUT /links/lnk_missing → 404, updateLink)',
      '  ok    a delete of a link that does not exist (DELETE /links/lnk_missing → 404, deleteLink)',
      '',
      'All 7 interactions keep the contract.',
    ]);
  });
});

describe('exit 1 on a mismatch, or a pact file that cannot be checked', () => {
  it('names each failing interaction, the side, the field and the engine', async () => {
    const { code, out } = await run(fixturePath('undocumented-status.json'));
    expect(code).toBe(1);
    expect(out).toContain(
      [
        '  FAIL  a link with a slug that is taken (POST /links → 409, createLink)',
        '          response status: 409 is not documented for this operation (documented: 201, 400, 401, 404)  [swagger-mock-validator]',
        '  FAIL  a link deleted with a confirmation (DELETE /links/lnk_V2xq9TbL3mKz8RcA → 200, deleteLink)',
        '          response status: 200 is not documented for this operation (documented: 204, 401, 404)  [swagger-mock-validator]',
        '',
        '2 of 2 interactions break the contract.',
      ].join('\n'),
    );
  });

  it('shows the engine of each problem', async () => {
    const requests = await run(fixturePath('disallowed-requests.json'));
    expect(requests.code).toBe(1);
    expect(requests.out).toContain("          request body: has unexpected field 'expiresAt'; such a request is answered 400, not 201  [shortlink-mock]");
    expect(requests.out).toContain('          request method: /links has no GET operation (it has POST): the API answers it 405  [shortlink-mock]');
    const answer = await run(fixturePath('broken-link-body.json'));
    expect(answer.code).toBe(1);
    expect(answer.out).toContain('          response body.createdAt: must match format "date-time" (got "yesterday")  [swagger-mock-validator]');
  });

  it.each([
    ['malformed JSON', fixturePath('malformed.json'), /^shortlink-mock pact check: .*malformed\.json is not valid JSON: /],
    ['a missing file', join(dir, 'nope.json'), /^shortlink-mock pact check: cannot read pact file .*nope\.json: ENOENT/],
    ['a V1 pact', 'v1', /^shortlink-mock pact check: .*v1\.json cannot be checked: Pact specification version 1\.1\.0 is not supported; pact check reads Pact specification V2, V3, V4$/],
    ['a pact that is not one', 'not-a-pact', /cannot be checked: a Pact file is a JSON object/],
  ])('%s', async (_name, given, expected) => {
    let file = given;
    if (given === 'v1') file = writeJson('v1.json', { ...fixture('good-v3.json'), metadata: { 'pact-specification': { version: '1.1.0' } } });
    if (given === 'not-a-pact') file = writeJson('list.json', [1, 2]);
    const { code, out, err } = await run(file);
    expect({ code, out }).toEqual({ code: 1, out: '' });
    expect(err).toMatch(expected);
  });
});

describe('exit 2 on a bad flag', () => {
  it.each([
    [['--nope', 'x.json'], "Unknown option '--nope'"],
    [[], 'name the pact file to check'],
    [['a.json', 'b.json'], 'one pact file at a time, got 2: a.json b.json'],
    [['x.json', '--contract'], "Option '--contract <value>' argument missing"],
    [['x.json', '--contract', ''], '--contract must not be empty'],
    [['x.json', '--contract', '/nonexistent/openapi.yaml'], 'cannot read --contract /nonexistent/openapi.yaml: ENOENT'],
    [['x.json', '--junit', '/'], 'cannot write --junit /: / is a directory'],
  ])('%j', async (argv, message) => {
    const { code, err } = await run(...argv);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).toContain('(see shortlink-mock pact check --help)');
  });

  it('a --contract the engine cannot use (a reference to nothing)', async () => {
    const contractFile = join(dir, 'dangling.yaml');
    writeFileSync(contractFile, stringify({ openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: { '/links': { post: { operationId: 'createLink', responses: { '201': { $ref: '#/components/responses/Nope' } } } } } }));
    const { code, out, err } = await run(fixturePath('good-v3.json'), '--contract', contractFile);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toBe(`shortlink-mock pact check: the contract ${contractFile} cannot be used: swagger-mock-validator: Unable to parse "openapi.yaml": Token "components" does not exist.`);
  });

  it('a --contract that is not an OpenAPI document', async () => {
    const { code, err } = await run(fixturePath('good-v3.json'), '--contract', writeJson('not-openapi.json', { hello: 'world' }));
    expect(code).toBe(2);
    expect(err).toContain('is not an OpenAPI document (it has no paths)');
  });
});

it('--help: usage, versions, engines and exit codes; exit 0', async () => {
  const { code, out } = await run('--help');
  expect(code).toBe(0);
  expect(out).toMatch(/^Usage: shortlink-mock pact check <pact\.json> \[--contract FILE\] \[--junit FILE\]/);
  for (const text of ['Pact specification V2, V3, V4', 'swagger-mock-validator', '--contract FILE', '--junit FILE', 'Exit code 0']) expect(out).toContain(text);
});

it('--contract checks against another document: one that documents createLink 409 accepts it', async () => {
  const document = parse(readFileSync(CONTRACT_FILE, 'utf8')) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  const create = document.paths['/links']?.['post'];
  if (!create) throw new Error('openapi.yaml has no createLink');
  create.responses['409'] = { $ref: '#/components/responses/CreateBadRequest' };
  const contractFile = join(dir, 'with-409.yaml');
  writeFileSync(contractFile, stringify(document));
  const { code, out } = await run(fixturePath('undocumented-status.json'), '--contract', contractFile);
  expect(code).toBe(1);
  expect(out).toContain('  ok    a link with a slug that is taken (POST /links → 409, createLink)');
  expect(out).toContain(`against Short-Link Management API 0.0.2 (${contractFile})`);
  expect(out).toContain('1 of 2 interactions break the contract.');
});

it('--junit FILE: one testcase per interaction, a failure with the problems; missing directories are created', async () => {
  const junit = join(dir, 'reports', 'nested', 'pact.xml');
  const { code, out } = await run(fixturePath('wrong-error-codes.json'), '--junit', junit);
  expect(code).toBe(1);
  expect(out).toContain(`JUnit report written to ${junit}`);
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="pact check: links-web → short-link-api \(.*\)" tests="3" failures="3" errors="0">/);
  expect(xml.match(/<testcase /g)).toHaveLength(3);
  expect(xml).toContain('<failure message="response body.code: must be one of LINK_LIMIT_REACHED (got &quot;LINK_NOT_FOUND&quot;)  [swagger-mock-validator]" type="ContractMismatch">');
});

function writeJson(name: string, json: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(json));
  return file;
}
