// `code` on errors (the Error object's optional enum): variety varies it only where the contract
// leaves it free, and says where it does not and why. In openapi.yaml it is free nowhere: D5 sends
// LINK_LIMIT_REACHED exactly on the link-limit refusal, and its one value means that refusal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResponseChecker } from '../../src/contract/response-checker.js';
import { planOf } from '../../src/variety/plan.js';
import { varyBody } from '../../src/variety/vary-body.js';
import { buildDimensions } from '../../src/variety/dimensions.js';
import { notVaried } from '../../src/variety/not-varied.js';
import { contract, createTestApp } from '../helpers/test-app.js';

/** openapi.yaml with Error.code changed by `change` (a copy; the contract itself stays as it is). */
function withCode(change: (code: Record<string, unknown>) => void): unknown {
  const copy = structuredClone(contract.document) as unknown as { components: { schemas: { Error: { properties: { code: Record<string, unknown> } } } } };
  change(copy.components.schemas.Error.properties.code);
  return copy;
}

describe("variety and errors' code", () => {
  it('reads from the schema whether code is free: an enum is not, a free optional string is', () => {
    expect(buildDimensions(contract.document).filter(({ name }) => name.includes('.code:'))).toEqual([]);
    const free = buildDimensions(withCode((code) => delete code['enum'])).map(({ name }) => name);
    expect(free).toEqual(expect.arrayContaining(['createLink.code:absent', 'updateLink.code:absent', 'deleteLink.code:absent']));
  });

  it('a free code (a contract without the enum) varies in every way its schema allows, and keeps that contract', () => {
    const document = withCode((code) => delete code['enum']);
    const catalogue = buildDimensions(document);
    const codes = catalogue.filter(({ name }) => name.includes('.code:')).map(({ name }) => name);
    const checker = new ResponseChecker(document as ConstructorParameters<typeof ResponseChecker>[0]);
    const errorsOf = checker.operationList().flatMap(({ operationId, statuses }) => statuses.filter((status) => status >= 400).map((status) => ({ operationId, status })));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.subarray(codes, { minLength: 1 }), (seed, only) => {
        const plan = planOf(catalogue, { seed, only });
        for (const { operationId, status } of errorsOf) {
          const operation = plan.get(operationId);
          if (!operation) continue;
          const varied = varyBody(operation, status, { errorDescription: 'refused', code: 'SOME_CODE' });
          expect(checker.checkResponse(operationId, status, 'application/json', JSON.stringify(varied.body))).toEqual([]);
        }
      }),
      { numRuns: 100, seed: 26 },
    );
  });

  it('names every optional field it does not vary, with the reason read from the schema', () => {
    const notes = notVaried(contract.document, buildDimensions(contract.document));
    for (const operationId of ['createLink', 'updateLink', 'deleteLink']) {
      expect(notes).toContainEqual({ what: `${operationId}.code`, why: expect.stringContaining('LINK_LIMIT_REACHED') });
    }
  });

  it('GET /__admin/variety/dimensions lists what is not varied beside the dimensions', async () => {
    const app = await createTestApp();
    const { body } = await app.request.get('/__admin/variety/dimensions').expect(200);
    expect(body.notVaried).toContainEqual({ what: 'createLink.code', why: expect.stringContaining('D5') });
  });
});
