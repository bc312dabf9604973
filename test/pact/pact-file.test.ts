// readPactFile: every supported version read into one shape, and every other file refused with a
// message that names the place. No engine runs here.
import { describe, expect, it } from 'vitest';
import { PactFileError, readPactFile } from '../../src/pact/pact-file.js';

const interaction = { description: 'a link deleted', request: { method: 'DELETE', path: '/links/l1', headers: { 'X-Api-Key': 'demo-key' } }, response: { status: 204 } };
const pact = (version: unknown, interactions: unknown[] = [interaction], metadataKey = 'pactSpecification') => ({
  consumer: { name: 'web' },
  provider: { name: 'api' },
  interactions,
  metadata: version === undefined ? {} : { [metadataKey]: { version } },
});

function refusal(json: unknown): string {
  try {
    readPactFile(json);
  } catch (error) {
    if (error instanceof PactFileError) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('readPactFile reads V2, V3 and V4 into one shape', () => {
  it.each([['2.0.0', 2], ['3.0.0', 3], ['4.0', 4]])('version %s is V%i; header names are lower case', (version, major) => {
    const read = readPactFile(pact(version, [major === 4 ? { ...interaction, type: 'Synchronous/HTTP' } : interaction]));
    expect(read).toMatchObject({ consumer: 'web', provider: 'api', version: major });
    expect(read.interactions).toEqual([{ kind: 'http', index: 0, description: 'a link deleted', providerStates: [], request: { method: 'DELETE', path: '/links/l1', headers: { 'x-api-key': 'demo-key' } }, response: { status: 204, headers: {} } }]);
  });

  it('V4: header value lists are joined, bodies unwrapped (plain, JSON text, base64), contentType stands in for Content-Type', () => {
    const body = (content: unknown, encoded: unknown) => ({ content, contentType: 'application/json', encoded });
    const v4 = pact('4.0', [
      { type: 'Synchronous/HTTP', description: 'plain', request: { method: 'post', path: '/links', headers: { Accept: ['application/json', 'text/plain'] }, body: body({ a: 1 }, false) }, response: { status: 201, body: body('{"b":2}', 'JSON') } },
      { type: 'Synchronous/HTTP', description: 'base64', request: { method: 'POST', path: '/links', body: body(Buffer.from('{"c":3}').toString('base64'), 'base64') }, response: { status: 400 } },
    ]);
    const [plain, base64] = readPactFile(v4).interactions;
    expect(plain).toMatchObject({ request: { method: 'POST', headers: { accept: 'application/json, text/plain', 'content-type': 'application/json' }, body: { a: 1 } }, response: { body: { b: 2 } } });
    expect(base64).toMatchObject({ request: { body: { c: 3 } } });
  });

  it('V4: an interaction that is not HTTP is kept by its type, in its place', () => {
    const message = { type: 'Asynchronous/Messages', description: 'a link-created event', contents: { content: {} } };
    const read = readPactFile(pact('4.0', [message, { ...interaction, type: 'Synchronous/HTTP' }]));
    expect(read.interactions.map((entry) => [entry.kind, entry.index])).toEqual([['other', 0], ['http', 1]]);
    expect(read.interactions[0]).toMatchObject({ type: 'Asynchronous/Messages' });
  });

  it('provider states: V2 providerState, V3 providerStates names', () => {
    expect(readPactFile(pact('2.0.0', [{ ...interaction, providerState: 'a link exists' }])).interactions[0]).toMatchObject({ providerStates: ['a link exists'] });
    expect(readPactFile(pact('3.0.0', [{ ...interaction, providerStates: [{ name: 'one', params: { id: 1 } }, { name: 'two' }] }])).interactions[0]).toMatchObject({ providerStates: ['one', 'two'] });
  });
});

describe('readPactFile refuses what it cannot check, saying why and where', () => {
  it.each([
    ['a JSON array', [], 'a Pact file is a JSON object'],
    ['V1', pact('1.0.0', [interaction], 'pact-specification'), 'Pact specification version 1.0.0 is not supported; pact check reads Pact specification V2, V3, V4'],
    ['V1 (pactSpecificationVersion)', { ...pact(undefined), metadata: { pactSpecificationVersion: '1.0.0' } }, 'version 1.0.0 is not supported'],
    ['a version to come', pact('5.0.0'), 'version 5.0.0 is not supported'],
    ['no version', pact(undefined), 'the file names no Pact specification version (metadata.pactSpecification.version)'],
    ['no interactions list', { ...pact('3.0.0'), interactions: {} }, 'interactions must be an array'],
    ['no interactions', pact('3.0.0', []), 'the pact has no interactions to check'],
    ['no consumer', { ...pact('3.0.0'), consumer: undefined }, 'consumer.name must be a non-empty string'],
    ['no description', pact('3.0.0', [{ ...interaction, description: '' }]), 'interactions[0].description must be a non-empty string'],
    ['no method', pact('3.0.0', [{ ...interaction, request: { path: '/links' } }]), 'interactions[0].request.method must be an HTTP method'],
    ['a relative path', pact('3.0.0', [{ ...interaction, request: { method: 'GET', path: 'links' } }]), 'interactions[0].request.path must be a string starting with /'],
    ['no status', pact('3.0.0', [{ ...interaction, response: {} }]), 'interactions[0].response.status must be an HTTP status code'],
    ['a status as text', pact('3.0.0', [{ ...interaction, response: { status: '204' } }]), 'interactions[0].response.status must be an HTTP status code'],
    ['a header that is an object', pact('3.0.0', [{ ...interaction, request: { ...interaction.request, headers: { 'x-api-key': { a: 1 } } } }]), 'interactions[0].request.headers.x-api-key must be a string or a list of strings'],
    ['V4 without a type', pact('4.0', [interaction]), 'interactions[0].type must be a string such as "Synchronous/HTTP"'],
    ['V4 body not wrapped', pact('4.0', [{ ...interaction, type: 'Synchronous/HTTP', response: { status: 200, body: 'text' } }]), 'interactions[0].response.body must be an object {content, contentType, encoded} in a V4 pact'],
    ['V4 JSON text that is not JSON', pact('4.0', [{ ...interaction, type: 'Synchronous/HTTP', response: { status: 200, body: { content: '{', encoded: 'JSON' } } }]), 'interactions[0].response.body.content is not valid JSON'],
  ])('%s', (_name, json, message) => {
    expect(refusal(json)).toContain(message);
  });
});
