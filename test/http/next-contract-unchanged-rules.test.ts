// Issue 38: next contracts whose edits leave every operation and field served as before
// (classification: three operations by rule, no field changed), and the rules answering by FILE.
// An enum value added to Error.code, a status documented on createLink, a field made nullable. On
// the project's store (memory, and Redis in the unit-redis project).
import { describe, expect, it } from 'vitest';
import { createTestApp, DEMO, LIMITED } from '../helpers/test-app.js';
import { createNextContractApp } from '../helpers/next-contract-app.js';

const NEW_LINK = { destinationUrl: 'https://example.com/next', domain: 'short.test', tags: [] };

describe('next contracts that move nothing the rules serve', () => {
  it.each(['enum-value-added.yaml', 'status-added.yaml', 'title-nullable.yaml'])('%s: every operation by rule, no field changed; a create and an update answer as today', async (name) => {
    const app = await createNextContractApp(name);
    const served = await app.request.get('/__admin/contract').expect(200);
    expect(served.body.operations.map((operation: { served: string }) => operation.served)).toEqual(['rule', 'rule', 'rule']);
    expect(served.body.fields).toEqual([]);
    const created = await app.request.post('/links').set('x-api-key', DEMO).send(NEW_LINK).expect(201);
    await app.request.put(`/links/${created.body.id}`).set('x-api-key', DEMO).send({ tags: [{ name: 'moved' }] }).expect(200);
  });

  it('enum-value-added.yaml: LINK_LIMIT_REACHED still answered by the rule', async () => {
    const app = await createNextContractApp('enum-value-added.yaml');
    const refused = await app.request.post('/links').set('x-api-key', LIMITED).send(NEW_LINK).expect(400);
    expect(refused.body.code).toBe('LINK_LIMIT_REACHED');
  });

  it("status-added.yaml: createLink's new 409 can be asked for with Prefer, as FILE documents it; the shipped contract refuses it", async () => {
    const app = await createNextContractApp('status-added.yaml');
    const forced = await app.request.post('/links').set('x-api-key', DEMO).set('prefer', 'code=409').send(NEW_LINK).expect(409);
    expect(typeof forced.body.errorDescription).toBe('string');
    const shipped = await createTestApp();
    await shipped.request.post('/links').set('x-api-key', DEMO).set('prefer', 'code=409').send(NEW_LINK).expect(400);
  });
});
