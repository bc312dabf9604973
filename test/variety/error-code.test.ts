// `code` on errors (the Error object's optional enum): variety varies it only where the contract
// leaves it free, and says where it does not and why. In openapi.yaml it is free nowhere: D5 sends
// LINK_LIMIT_REACHED exactly on the link-limit refusal, and its one value means that refusal.
import { describe, expect, it } from 'vitest';
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
