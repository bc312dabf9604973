// checkPact on hand-written pacts (test/pact/fixtures): a good pact in V2, V3 and V4 passes; each
// kind of mismatch is refused, naming the interaction, the side, the field and the engine.
import { describe, expect, it } from 'vitest';
import { checkPact } from '../../src/pact/check.js';
import { asV2, checked, contract, errors, message } from './check-helpers.js';
import { fixture } from './pact-fixtures.js';

describe('a pact that keeps the contract passes', () => {
  it('V3: create 201 with type matchers, update 200, delete 204, 400 LINK_LIMIT_REACHED, 401, 404 with Error objects', async () => {
    const check = await checked(fixture('good-v3.json'));
    expect(errors(check)).toEqual([]);
    expect(check).toMatchObject({ passed: true, consumer: 'links-web', provider: 'short-link-api', version: 3, contractTitle: 'Short-Link Management API 0.0.2' });
    expect(check.interactions.map((result) => `${result.exchange} ${result.operationId}`)).toEqual([
      'POST /links → 201 createLink',
      'PUT /links/lnk_V2xq9TbL3mKz8RcA → 200 updateLink',
      'DELETE /links/lnk_V2xq9TbL3mKz8RcA → 204 deleteLink',
      'POST /links → 400 createLink',
      'POST /links → 401 createLink',
      'PUT /links/lnk_missing → 404 updateLink',
      'DELETE /links/lnk_missing → 404 deleteLink',
    ]);
  });

  it('V2: the same interactions, with a providerState and V2 matchingRules', async () => {
    const check = await checked(asV2(fixture('good-v3.json')));
    expect(check.version).toBe(2);
    expect(errors(check)).toEqual([]);
  });

  it('V4: bodies as {content, encoded} (plain, base64, JSON text), headers as lists', async () => {
    const check = await checked(fixture('good-v4.json'));
    expect(check.version).toBe(4);
    expect(errors(check)).toEqual([]);
  });

  it('a required field the pact leaves out of a response is fine: Pact bodies are partial', async () => {
    const pact = fixture('good-v3.json');
    pact['interactions'][0].response.body = { id: 'lnk_1', shortUrl: 'https://short.test/Ab3dE7x' };
    expect(errors(await checked(pact))).toEqual([]);
  });
});

describe('mismatches are refused, naming the interaction, the side and the field', () => {
  it('a status the operation does not document (createLink 409, deleteLink 200)', async () => {
    const check = await checked(fixture('undocumented-status.json'));
    expect(check.passed).toBe(false);
    expect(errors(check)).toEqual([
      ['a link with a slug that is taken', 'response', 'status', 'swagger-mock-validator'],
      ['a link deleted with a confirmation', 'response', 'status', 'swagger-mock-validator'],
    ]);
    expect(message(check, 'a link with a slug that is taken')).toBe('409 is not documented for this operation (documented: 201, 400, 401, 404)');
    expect(message(check, 'a link deleted with a confirmation')).toBe('200 is not documented for this operation (documented: 204, 401, 404)');
  });

  it('a response body that breaks the Link schema: each field named', async () => {
    const check = await checked(fixture('broken-link-body.json'));
    expect(errors(check).map(([, side, field]) => `${side} ${field}`).sort()).toEqual(['response body', 'response body.clickCount', 'response body.createdAt']);
    const text = message(check, 'a new link with the wrong fields in the answer');
    expect(text).toContain("has unexpected field 'owner'");
    expect(text).toContain('must match format "date-time" (got "yesterday")');
    expect(text).toContain('must be >= 0 (got -1)');
  });

  it('an example value breaks the schema even where a type matcher stands for it', async () => {
    const pact = fixture('good-v3.json');
    pact['interactions'][0].response.body.id = 42; // $.id has { match: 'type' }
    const check = await checked(pact);
    expect(errors(check)).toEqual([['a new link on the default domain', 'response', 'body.id', 'swagger-mock-validator']]);
  });

  it('requests the contract does not allow: an unknown body field, undocumented paths and methods (a trailing slash too), no key, a body that is answered 400 first', async () => {
    const check = await checked(fixture('disallowed-requests.json'));
    expect(errors(check)).toEqual([
      ['a new link with a field the API does not take', 'request', 'body', 'shortlink-mock'],
      ['the list of links', 'request', 'method', 'shortlink-mock'],
      ["a link's statistics", 'request', 'path', 'shortlink-mock'],
      ['a new link at /links/', 'request', 'path', 'shortlink-mock'],
      ['a delete without an API key that expects a 404', 'request', 'header x-api-key', 'shortlink-mock'],
      ['an update that sends a slug and expects a 404', 'request', 'body', 'shortlink-mock'],
    ]);
    expect(message(check, 'a new link with a field the API does not take')).toBe("has unexpected field 'expiresAt'; such a request is answered 400, not 201");
    expect(message(check, 'the list of links')).toBe('/links has no GET operation (it has POST): the API answers it 405');
    expect(message(check, 'a new link at /links/')).toBe('/links/ is not a path of the contract: the API answers it 404');
    expect(message(check, 'a delete without an API key that expects a 404')).toContain('without it the answer is 401 (D14), never 404');
  });

  it('Error objects: an unknown code, LINK_LIMIT_REACHED outside createLink 400 (D5), a field Error does not have', async () => {
    const check = await checked(fixture('wrong-error-codes.json'));
    expect(errors(check)).toEqual([
      ['an update of a link that does not exist, with a code', 'response', 'body.code', 'swagger-mock-validator'],
      ['a delete when the account is at its limit', 'response', 'body.code', 'shortlink-mock'],
      ['an error without a description', 'response', 'body', 'swagger-mock-validator'],
    ]);
    expect(message(check, 'an update of a link that does not exist, with a code')).toBe('must be one of LINK_LIMIT_REACHED (got "LINK_NOT_FOUND")');
    expect(message(check, 'a delete when the account is at its limit')).toBe('LINK_LIMIT_REACHED is answered only with createLink 400 (where the contract shows it), not with deleteLink 404');
  });

  it('LINK_LIMIT_REACHED for a body the API refuses first (D19); a plain 400 for it is fine', async () => {
    const pact = fixture('good-v3.json');
    const limited = pact['interactions'][3];
    limited.request.body = { destinationUrl: 'not a url', domain: 'short.test', tags: [] };
    pact['interactions'].push({ ...structuredClone(limited), description: 'a plain 400 for the same body', response: { status: 400, body: { errorDescription: 'bad destinationUrl' } } });
    const check = await checked(pact);
    // Two errors of the field (its format and its pattern), both on the LINK_LIMIT_REACHED interaction.
    expect(new Set(errors(check).map((row) => row.join(' / ')))).toEqual(new Set(['a new link when the account is at its limit / request / body.destinationUrl / shortlink-mock']));
    expect(message(check, 'a new link when the account is at its limit')).toContain('must match format "uri" (got "not a url"); the body is checked first (D19), so the answer is a 400 without code LINK_LIMIT_REACHED');
  });

  it('V4: an interaction that is not HTTP is refused, and the HTTP ones after it are judged in their own place', async () => {
    const pact = fixture('good-v4.json');
    pact['interactions'].unshift({ type: 'Asynchronous/Messages', description: 'a link-created event', contents: { content: { id: 'lnk_1' } } });
    pact['interactions'][3].response.status = 200; // the delete, now fourth
    const check = await checked(pact);
    expect(errors(check)).toEqual([
      ['a link-created event', 'interaction', 'type', 'shortlink-mock'],
      ['a link deleted', 'response', 'status', 'swagger-mock-validator'],
    ]);
  });

  it('notes (query parameters the contract does not define) are reported without failing', async () => {
    const pact = fixture('good-v3.json');
    pact['interactions'][2].request.query = { force: ['true'] };
    const check = await checked(pact);
    expect(check.passed).toBe(true);
    expect(check.interactions[2]?.findings).toMatchObject([{ severity: 'warning', side: 'request', field: 'query force', engine: 'swagger-mock-validator' }]);
  });
});

it('a file that is not a supported pact is refused with the reason', async () => {
  expect(await checkPact({ ...fixture('good-v3.json'), metadata: { pactSpecificationVersion: '1.0.0' } }, contract)).toEqual({
    kind: 'refused',
    reason: 'Pact specification version 1.0.0 is not supported; pact check reads Pact specification V2, V3, V4',
  });
});
