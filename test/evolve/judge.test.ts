// The judgement of one exchange on small contracts of its own: the cases the fixture's edits do not
// plant (security where there was none, a problem --from had already).
import { expect, it } from 'vitest';
import { ContractView } from '../../src/commands/evolve/contract-view.js';
import type { Exchange } from '../../src/commands/evolve/exchanges.js';
import { Judge } from '../../src/commands/evolve/judge.js';
import { contractOf } from '../../src/contract/package-files.js';

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
