// D30: control characters, line separators, bidirectional controls and lone surrogates are refused
// in every string field of a request, with a 400 that names the field and changes nothing; real
// text (accents, CJK, emoji, i.e. surrogate pairs) is welcome.
import { describe, expect, test } from 'vitest';
import { ABSOLUTE_URL_PATTERN, PLAIN_TEXT_PATTERN } from '../../src/http/validator-findings.js';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { contract, createTestApp, DEMO } from '../helpers/test-app.js';

const valid = { tags: [{ name: 'ok' }], destinationUrl: 'https://example.com/page', domain: 'short.test' };
const BAD = [
  ['NUL', '\u0000'],
  ['CR LF', '\r\n'],
  ['TAB', '\t'],
  ['DEL', '\u007f'],
  ['C1 NEL', '\u0085'],
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', '\udc00'],
  ['a right-to-left override', '\u202e'],
  ['a first-strong isolate', '\u2068'],
  ['a line separator', '\u2028'],
] as const;

describe('createLink refuses text that is not text, naming the field', () => {
  test.each(BAD)('%s in a tag name', async (_name, bad) => {
    const t = await createTestApp();
    const before = await t.data();
    const res = await t.request.post('/links').set('x-api-key', DEMO).send({ ...valid, tags: [{ name: `a${bad}b` }] });
    expectError(res, 400, { mentions: "'tags.0.name' must be plain text" });
    expect(await t.data()).toEqual(before);
  });

  test.each([
    ['tag id', { tags: [{ id: 'tag\u0000x', name: 'x' }] }, "'tags.0.id' must be plain text"],
    ['domain', { domain: 'short\u0007.test' }, "'domain' must be plain text"],
    ['destinationUrl', { destinationUrl: 'https://example.com/a\u202eb' }, "'destinationUrl' must be plain text"],
  ])('a control character in the %s', async (_field, change, mentions) => {
    const t = await createTestApp();
    expectError(await t.request.post('/links').set('x-api-key', DEMO).send({ ...valid, ...change }), 400, { mentions });
  });

  test('a blank tag name reads as a sentence', async () => {
    const t = await createTestApp();
    expectError(await t.request.post('/links').set('x-api-key', DEMO).send({ ...valid, tags: [{ name: '   ' }] }), 400, { mentions: "'tags.0.name' must not be blank" });
  });

  test('accents, CJK and emoji (surrogate pairs) are text', async () => {
    const t = await createTestApp();
    const tags = [{ name: 'café' }, { name: '短链接' }, { name: '🚀 launch' }];
    const res = await t.request.post('/links').set('x-api-key', DEMO).send({ ...valid, tags });
    expectLink(res, 201);
    expect((res.body as { tags: { name: string }[] }).tags.map((tag) => tag.name).sort()).toEqual(tags.map((tag) => tag.name).sort());
  });
});

test('updateLink refuses it too', async () => {
  const t = await createTestApp();
  const id = (await t.linksOf(DEMO))[0]!.id;
  const before = await t.data();
  expectError(await t.request.put(`/links/${id}`).set('x-api-key', DEMO).send({ tags: [{ name: 'x\u0000' }] }), 400, { mentions: "'tags.0.name' must be plain text" });
  expect(await t.data()).toEqual(before);
});

describe('openapi.yaml states the rule for every string field of a request', () => {
  type Schema = { type?: string; pattern?: string; $ref?: string; allOf?: Schema[]; properties?: Record<string, Schema>; items?: Schema };
  const schemas = (contract.document as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;
  const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(schemas[schema.$ref.split('/').pop()!]!) : schema);
  const SLUG = '^[A-Za-z0-9_-]*$'; // stricter than plain text: ASCII letters, digits, - and _

  function stringFields(schema: Schema, path: string, out: Array<[string, Schema]>, depth = 0): Array<[string, Schema]> {
    const plain = resolve(schema);
    if (depth > 10) throw new Error(`schema too deep at ${path}`);
    if (plain.type === 'string') out.push([path, plain]);
    for (const [name, property] of Object.entries(plain.properties ?? {})) stringFields(property, `${path}.${name}`, out, depth + 1);
    if (plain.items) stringFields(plain.items, `${path}[]`, out, depth + 1);
    return out;
  }

  test('the server reads the PlainText pattern exactly as the contract writes it', () => {
    expect(schemas['PlainText']?.pattern).toBe(PLAIN_TEXT_PATTERN);
  });

  test("the server reads DestinationUrl's pattern exactly as the contract writes it (its sentence: D13)", () => {
    expect(schemas['DestinationUrl']?.pattern).toBe(ABSOLUTE_URL_PATTERN);
  });

  test.each(['CreateLinkRequest', 'UpdateLinkRequest'])('%s', (name) => {
    const fields = stringFields({ $ref: `#/components/schemas/${name}` }, name, []);
    expect(fields.length).toBeGreaterThan(2);
    for (const [path, schema] of fields) {
      const plain = schema.pattern === PLAIN_TEXT_PATTERN || schema.pattern === SLUG || (schema.allOf ?? []).some((part) => resolve(part).pattern === PLAIN_TEXT_PATTERN);
      expect(plain, `${path} must follow PlainText (D30)`).toBe(true);
    }
  });
});
