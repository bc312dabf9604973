// Issue 38, part 2 (D32): GET /__admin/contract says how each operation and field of the served
// contract is served, behind the admin guards like every admin route; the built-in scenarios still
// load when FILE adds operations (a `*` rule covers the operations served by rule) or removes one.
import { describe, expect, it } from 'vitest';
import { createTestApp, DEMO } from '../helpers/test-app.js';
import { createNextContractApp, nextContractFile } from '../helpers/next-contract-app.js';
import { MAX_NAMES_PER_KIND, servedLines } from '../../src/process/served-lines.js';
import { startupBanner } from '../../src/process/banner.js';
import { configOf } from '../../src/toolkit/start-options.js';

describe('GET /__admin/contract', () => {
  it('the shipped contract: file null, three operations by rule, no field changed', async () => {
    const app = await createTestApp();
    const answer = await app.request.get('/__admin/contract').expect(200);
    expect(answer.body).toEqual({
      file: null,
      version: '0.0.2',
      operations: [
        { operationId: 'createLink', method: 'POST', path: '/links', served: 'rule' },
        { operationId: 'updateLink', method: 'PUT', path: '/links/{id}', served: 'rule' },
        { operationId: 'deleteLink', method: 'DELETE', path: '/links/{id}', served: 'rule' },
      ],
      fields: [],
    });
  });

  it.each([
    ['list-links.yaml', { operationId: 'listLinks', method: 'GET', path: '/links', served: 'store', read: 'list', itemsField: 'items' }],
    ['get-link.yaml', { operationId: 'getLink', method: 'GET', path: '/links/{id}', served: 'store', read: 'one' }],
    ['stats-added.yaml', { operationId: 'getStats', method: 'GET', path: '/stats', served: 'generated' }],
    ['delete-removed.yaml', { operationId: 'deleteLink', method: 'DELETE', path: '/links/{id}', served: 'gone' }],
  ])('%s: the mock starts (built-in scenarios included) and lists the operation', async (name, operation) => {
    const app = await createNextContractApp(name);
    const answer = await app.request.get('/__admin/contract').expect(200);
    expect(answer.body.file).toBe(nextContractFile(name));
    expect(answer.body.version).toBe('0.0.3');
    expect(answer.body.operations).toContainEqual(operation);
    expect(app.scenarios.names()).toContain('not-found');
  });

  it('each generated field by its JSON pointer; the banner says the same in short', async () => {
    const app = await createNextContractApp('expires-at.yaml');
    const answer = await app.request.get('/__admin/contract').expect(200);
    expect(answer.body.fields).toContainEqual({ pointer: '/components/schemas/Link/properties/expiresAt', name: 'expiresAt', of: 'Link', served: 'generated' });
    expect(servedLines(app.servedContract)).toEqual([
      '  served     version 0.0.3; by rule: createLink, updateLink, deleteLink (GET /__admin/contract)',
      '  fields     generated and stored: Link.expiresAt; stored from the request: createLink.expiresAt, updateLink.expiresAt',
    ]);
  });

  it('a FILE of many operations: the banner names the first MAX_NAMES_PER_KIND of a kind and counts the rest', () => {
    const operations = Array.from({ length: 197 }, (_, i) => ({ operationId: `getResource${i}`, method: 'GET', path: `/r${i}`, served: 'generated' as const }));
    const served = { file: 'big.yaml', version: '1', operations, fields: [] } as unknown as Parameters<typeof servedLines>[0];
    const [line] = servedLines(served);
    expect(line).toContain(`generated from the schema: ${operations.slice(0, MAX_NAMES_PER_KIND).map((o) => o.operationId).join(', ')} and ${197 - MAX_NAMES_PER_KIND} more (GET /__admin/contract)`);
    expect(line?.length).toBeLessThan(400);
  });

  it('with --watch the banner says FILE is reloaded when edited, except in proxy mode', async () => {
    const app = await createNextContractApp('expires-at.yaml');
    const contractLine = async (options: Parameters<typeof configOf>[0]) => (await startupBanner('http://127.0.0.1:1', configOf({ contract: nextContractFile('expires-at.yaml'), ...options }), app, '0')).split('\n')[1];
    expect(await contractLine({ watch: true })).toMatch(/validated against it; reloaded when edited \(--watch\)\)$/);
    expect(await contractLine({ watch: true, proxy: 'http://127.0.0.1:9' })).toMatch(/; --watch does not reload it in proxy mode: restart to serve an edit\)$/);
    expect(await contractLine({})).toMatch(/validated against it\)$/);
  });

  it('a removed operation is not served: DELETE /links/{id} is a 405 naming what the path allows', async () => {
    const app = await createNextContractApp('delete-removed.yaml');
    const created = await app.request.post('/links').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] }).expect(201);
    const refused = await app.request.delete(`/links/${created.body.id}`).set('x-api-key', DEMO).expect(405);
    expect(refused.headers['allow']).toBe('PUT');
  });

  it('behind the admin token like every admin route', async () => {
    const app = await createNextContractApp('get-link.yaml', { adminToken: 'secret' });
    await app.request.get('/__admin/contract').expect(401);
    await app.request.get('/__admin/contract').set('x-admin-token', 'secret').expect(200);
  });
});
