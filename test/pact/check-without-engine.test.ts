// checkPact without swagger-mock-validator (an optional dependency: npm leaves it out when its
// install script fails). The engine is resolved from an empty directory, so it cannot be found, as
// in an install without it; the mock's own checks then judge the expected statuses, content types
// and bodies, and the result, the report and the JUnit file say so once.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CONTRACT_FILE } from '../../src/contract/package-root.js';
import { contractOf } from '../../src/contract/package-files.js';
import { checkPact, type CheckOptions } from '../../src/pact/check.js';
import { formatPactReport, pactJUnit } from '../../src/pact/check-report.js';
import { asV2, checked as checkedWithEngine, contract, errors, message, type Checked } from './check-helpers.js';
import { fixture } from './pact-fixtures.js';

const nowhere = mkdtempSync(join(tmpdir(), 'slm-no-engine-'));
afterAll(() => rmSync(nowhere, { recursive: true, force: true }));

const NOTE = 'swagger-mock-validator (an optional dependency) is not installed';
const withoutEngine: CheckOptions = { engineFrom: pathToFileURL(join(nowhere, 'here.js')).href };
const checked = (json: unknown): Promise<Checked> => checkedWithEngine(json, withoutEngine);

describe('a pact that keeps the contract passes, and the result says who judged it', () => {
  it.each([
    ['V2', () => asV2(fixture('good-v3.json'))],
    ['V3', () => fixture('good-v3.json')],
    ['V4', () => fixture('good-v4.json')],
  ])('%s', async (_version, pact) => {
    const check = await checked(pact());
    expect(errors(check)).toEqual([]);
    expect(check).toMatchObject({ passed: true, engineMissing: NOTE });
  });

  it('a required field the pact leaves out of a response is fine: Pact bodies are partial', async () => {
    const pact = fixture('good-v3.json');
    pact['interactions'][0].response.body = { id: 'lnk_1', shortUrl: 'https://short.test/Ab3dE7x' };
    expect(errors(await checked(pact))).toEqual([]);
  });

  it('an engine that is there but cannot be imported is said so, and the own checks judge', async () => {
    const dist = join(nowhere, 'broken', 'node_modules', '@pactflow', 'swagger-mock-validator', 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, '..', 'package.json'), JSON.stringify({ name: '@pactflow/swagger-mock-validator', version: '14.5.0', main: 'dist/index.js' }));
    writeFileSync(join(dist, 'index.js'), '');
    writeFileSync(join(dist, 'api.js'), "throw new Error('a broken build');");
    const check = await checkedWithEngine(fixture('undocumented-status.json'), { engineFrom: pathToFileURL(join(nowhere, 'broken', 'here.js')).href });
    expect(check.engineMissing).toBe('swagger-mock-validator (an optional dependency) is installed but cannot be loaded (a broken build)');
    expect(errors(check).map(([, , field, engine]) => `${field} ${engine}`)).toEqual(['status shortlink-mock', 'status shortlink-mock']);
  });

  it('with the engine, nothing is said about it', async () => {
    expect(await checkedWithEngine(fixture('good-v3.json'))).not.toHaveProperty('engineMissing');
  });
});

describe("the engine's part, taken by the mock's own checks", () => {
  it('a status the operation does not document (createLink 409, deleteLink 200)', async () => {
    const check = await checked(fixture('undocumented-status.json'));
    expect(errors(check)).toEqual([
      ['a link with a slug that is taken', 'response', 'status', 'shortlink-mock'],
      ['a link deleted with a confirmation', 'response', 'status', 'shortlink-mock'],
    ]);
    expect(message(check, 'a link with a slug that is taken')).toBe('409 is not documented for this operation (documented: 201, 400, 401, 404)');
    expect(message(check, 'a link deleted with a confirmation')).toBe('200 is not documented for this operation (documented: 204, 401, 404)');
  });

  it('a response body that breaks the Link schema: each field named', async () => {
    const check = await checked(fixture('broken-link-body.json'));
    expect(errors(check).sort()).toEqual([
      ['a new link with the wrong fields in the answer', 'response', 'body', 'shortlink-mock'],
      ['a new link with the wrong fields in the answer', 'response', 'body.clickCount', 'shortlink-mock'],
      ['a new link with the wrong fields in the answer', 'response', 'body.createdAt', 'shortlink-mock'],
    ]);
    const text = message(check, 'a new link with the wrong fields in the answer');
    for (const words of ["has unexpected field 'owner'", 'must match format "date-time" (got "yesterday")', 'must be >= 0 (got -1)']) expect(text).toContain(words);
  });

  it('Error objects: an unknown code, LINK_LIMIT_REACHED outside createLink 400 (D5), a field Error does not have', async () => {
    const check = await checked(fixture('wrong-error-codes.json'));
    expect(errors(check)).toEqual([
      ['an update of a link that does not exist, with a code', 'response', 'body.code', 'shortlink-mock'],
      ['a delete when the account is at its limit', 'response', 'body.code', 'shortlink-mock'],
      ['an error without a description', 'response', 'body', 'shortlink-mock'],
    ]);
    expect(message(check, 'an update of a link that does not exist, with a code')).toBe('must be one of LINK_LIMIT_REACHED (got "LINK_NOT_FOUND")');
    expect(message(check, 'an error without a description')).toBe("has unexpected field 'message' (the schema does not define it)");
  });

  it('a body for a status that documents none; a JSON body expected with another content type', async () => {
    const pact = fixture('good-v3.json');
    pact['interactions'][2].response.body = { deleted: true }; // deleteLink 204
    pact['interactions'][0].response.headers = { 'Content-Type': 'text/plain' };
    const check = await checked(pact);
    expect(errors(check)).toEqual([
      ['a new link on the default domain', 'response', 'header content-type', 'shortlink-mock'],
      ['a link deleted', 'response', 'body', 'shortlink-mock'],
    ]);
    expect(message(check, 'a link deleted')).toBe('the contract documents no body for this status, the pact expects one');
    expect(message(check, 'a new link on the default domain')).toBe("'text/plain' is not a content type the contract gives for 201 (application/json)");
  });

  it('a schema that does not say whether it takes other fields is read as closed, as the engine reads it', async () => {
    const document = structuredClone(contract.document) as unknown as { components: { schemas: { Error: Record<string, unknown> } } };
    delete document.components.schemas.Error['additionalProperties'];
    const open = { document: document as unknown as typeof contract.document, text: stringify(document) };
    const pact = fixture('wrong-error-codes.json');
    const field = async (options: CheckOptions): Promise<string[][]> => {
      const check = await checkPact(pact, open, options);
      if (check.kind !== 'checked') throw new Error(`refused: ${check.reason}`);
      return errors(check).filter(([description]) => description === 'an error without a description');
    };
    expect(await field({})).toEqual([['an error without a description', 'response', 'body', 'swagger-mock-validator']]);
    expect(await field(withoutEngine)).toEqual([['an error without a description', 'response', 'body', 'shortlink-mock']]);
  });

  it("the mock's request checks stay as they are", async () => {
    const check = await checked(fixture('disallowed-requests.json'));
    expect(errors(check).map(([, side, field]) => `${side} ${field}`)).toEqual(['request body', 'request method', 'request path', 'request path', 'request header x-api-key', 'request body']);
  });
});

describe('the report and the JUnit file say it once, at the top', () => {
  it('report', async () => {
    const lines = formatPactReport(await checked(fixture('undocumented-status.json')), 'pact.json', 'openapi.yaml').split('\n');
    expect(lines[2]).toBe(
      `note: ${NOTE}: the mock's own validators judged the response statuses, content types and bodies; not checked without it: response headers, the request's Content-Type and Accept, query parameters and headers the contract does not define`,
    );
    expect(lines.filter((line) => line.includes(NOTE))).toHaveLength(1);
    expect(lines).toContain('          response status: 409 is not documented for this operation (documented: 201, 400, 401, 404)  [shortlink-mock]');
  });

  it('JUnit: a property of the suite and its system-out', async () => {
    const xml = pactJUnit(await checked(fixture('good-v4.json')), 'pact.json');
    expect(xml).toContain(`<properties>\n      <property name="note" value="${NOTE}: the mock&apos;s own validators judged`);
    expect(xml).toContain(`<system-out>note: ${NOTE}: the mock's own validators judged`);
    expect(xml).toMatch(/<\/system-out>\n  <\/testsuite>/);
  });
});

it('a query name the engine misreads, declared by the contract: an error saying it cannot be checked, never a pass', async () => {
  const text = readFileSync(CONTRACT_FILE, 'utf8').replace(/(\n {4}post:\n {6}operationId: createLink\n)/, "$1      parameters:\n        - { name: constructor, in: query, schema: { type: string } }\n");
  expect(text).toContain('name: constructor');
  const pact = fixture('good-v3.json');
  pact['interactions'][0].request.query = { constructor: ['1'] };
  const result = await checkPact(pact, contractOf(text), withoutEngine);
  if (result.kind !== 'checked') throw new Error(result.kind);
  const finding = result.interactions[0]?.findings.find((each) => each.field === 'query constructor');
  expect(finding).toMatchObject({ severity: 'error', code: 'request.query.unchecked', engine: 'shortlink-mock' });
  expect(result.passed).toBe(false);
});

it('a report of one interaction speaks of one, not "All 1 interactions"', async () => {
  const pact = fixture('good-v3.json');
  pact['interactions'] = pact['interactions'].slice(0, 1);
  const good = await checked(pact);
  expect(formatPactReport(good, 'pact.json', 'openapi.yaml')).toMatch(/\nThe one interaction keeps the contract\.$/);
  pact['interactions'][0].response.status = 409;
  expect(formatPactReport(await checked(pact), 'pact.json', 'openapi.yaml')).toMatch(/\n1 of 1 interaction breaks the contract\.$/);
});
