// The judgement of one exchange on small contracts of its own: the cases the fixture's edits do not
// plant (security where there was none, a problem --from had already).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ContractView, MAX_SCHEMA_PARTS } from '../../src/commands/evolve/contract-view.js';
import type { Exchange } from '../../src/commands/evolve/exchanges.js';
import { Judge } from '../../src/commands/evolve/judge.js';
import { CONTRACT_FILE, contractOf } from '../../src/contract/package-files.js';

const contract = (security: string, maxLength: number): ContractView =>
  new ContractView(
    contractOf(`openapi: 3.0.3
info: { title: t, version: '1' }
${security}
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: x-api-key }
paths:
  /notes:
    post:
      operationId: addNote
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, properties: { text: { type: string, maxLength: ${maxLength} } } }
      responses:
        '201': { description: made }
`),
  );

const exchange = (text: string, headers: Record<string, string> = {}): Exchange => ({ consumer: 'c', method: 'POST', path: '/notes', headers, requestBody: { text }, status: 201, responseBody: undefined, scenario: null });

it('security where --from had none is breaking for a request without the header', () => {
  const judge = new Judge(contract('', 10), contract('security: [{ key: [] }]', 10));
  expect(judge.judge(exchange('hi')).map((finding) => finding.reason)).toEqual(['security: NEXT requires the x-api-key header, which the request did not send (401)']);
  expect(judge.judge(exchange('hi', { 'x-api-key': 'k***' }))).toEqual([]);
});

it('a problem the request had under --from already is no finding; a new one is', () => {
  const judge = new Judge(contract('', 3), contract('', 2));
  expect(judge.judge(exchange('toolong'))).toEqual([]);
  expect(judge.judge(exchange('abc'))).toMatchObject([{ kind: 'breaking', operationId: 'addNote', pointer: '/text', reason: expect.stringContaining('maxLength') }]);
});

it('a change two $refs deep is judged: parts of NEXT are skipped only when everything they reach is the same', () => {
  // The answer's $ref → Link → $ref → Domain: a narrower maxLength of NEXT's Domain.id changes
  // the answers of every Link, though the operation's and the Link schema's own text are the same.
  const shipped = readFileSync(CONTRACT_FILE, 'utf8');
  const next = shipped.replace(/(\n    Domain:\n(?:.*\n)*?\s+id:\n(?:.*\n)*?\s+)maxLength: 64/, '$1maxLength: 4');
  expect(next).not.toBe(shipped);
  const judge = new Judge(new ContractView(contractOf(shipped)), new ContractView(contractOf(next)));
  const link = { id: 'lnk_1', createdAt: '2026-11-28T10:00:00.000Z', destinationUrl: 'https://example.com/a', slug: 'abc', domain: { id: 'dom_1', name: 'short.test' }, shortUrl: 'https://short.test/abc', clickCount: 0, tags: [] };
  const created: Exchange = { consumer: 'c', method: 'POST', path: '/links', headers: { 'x-api-key': 'k***' }, requestBody: { destinationUrl: 'https://example.com/a', domain: 'short.test', tags: [] }, status: 201, responseBody: link, scenario: null };
  expect(judge.judge(created)).toMatchObject([{ kind: 'changed', operationId: 'createLink', pointer: '/domain/id', reason: expect.stringContaining('maxLength') }]);
  const same = new Judge(new ContractView(contractOf(shipped)), new ContractView(contractOf(shipped)));
  expect(same.judge(created)).toEqual([]);
});

it('a field missing at the answer\'s root is new only when --from did not require it, whether its required list says so or an allOf does', () => {
  const answering = (schema: string): ContractView =>
    new ContractView(
      contractOf(`openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  /notes:
    get:
      operationId: getNote
      responses:
        '200':
          description: a note
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Note' }
components:
  schemas:
    Note: ${schema}
`),
    );
  const got: Exchange = { consumer: 'c', method: 'GET', path: '/notes', headers: {}, requestBody: undefined, status: 200, responseBody: { c: 'x' }, scenario: null };
  const next = answering("{ type: object, required: [a, b] }");
  const missing = (from: ContractView): string[] => new Judge(from, next).judge(got).map((finding) => finding.pointer);
  expect(missing(answering('{ type: object, required: [a] }'))).toEqual(['/b']);
  expect(missing(answering('{ type: object }'))).toEqual(['/a', '/b']);
  expect(missing(answering('{ type: object, required: [a], allOf: [{ required: [b] }] }'))).toEqual([]);
  expect(missing(answering('{ allOf: [{ $ref: "#/components/schemas/Base" }] }\n    Base: { type: object, required: [a, b] }'))).toEqual([]);
});

it(`a schema reaching more than ${MAX_SCHEMA_PARTS} references is not compared: both contracts validate it, and the verdict is the same`, () => {
  // One schema naming MAX_SCHEMA_PARTS + 5 others (wide, not deep: the validator compiles each).
  const names = Array.from({ length: MAX_SCHEMA_PARTS + 5 }, (_, index) => `S${index + 1}`);
  const chain = [`    S0: { type: object, properties: { ${names.map((name) => `${name}: { $ref: '#/components/schemas/${name}' }`).join(', ')} } }`, ...names.slice(0, -1).map((name) => `    ${name}: { type: string }`)].join('\n');
  const text = (maxLength: number): string => `openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  /notes:
    post:
      operationId: addNote
      requestBody:
        content:
          application/json:
            schema: { type: object, properties: { text: { type: string, maxLength: ${maxLength} }, tree: { $ref: '#/components/schemas/S0' } } }
      responses:
        '201': { description: made }
components:
  schemas:
${chain}
    S${MAX_SCHEMA_PARTS + 5}: { type: string }
`;
  const sent: Exchange = { consumer: 'c', method: 'POST', path: '/notes', headers: {}, requestBody: { text: 'abcdef', tree: { S1: 'x' } }, status: 201, responseBody: undefined, scenario: null };
  const from = new ContractView(contractOf(text(10)));
  expect(new Judge(from, from).judge(sent)).toEqual([]);
  expect(new Judge(from, new ContractView(contractOf(text(3)))).judge(sent)).toMatchObject([{ kind: 'breaking', pointer: '/text' }]);
});
