// The admin API is the mock's own: it works under every contract FILE the mock agrees to serve
// (docs/next-contract.md, "The admin API under FILE"). A black-box sweep found every admin route,
// /__admin/health included, a 500 `Missing $ref pointer "#/components/schemas/Error"` under a FILE
// that named its Error or Link schema otherwise, and a start that crashed with a TypeError on a FILE
// without components. And a 404 for a path FILE lacks names FILE's operations, not the shipped ones.
import { describe, expect, it, onTestFinished } from 'vitest';
import { startMock } from '../../src/toolkit/start-mock.js';
import { DEMO } from '../helpers/test-app.js';
import { createNextContractApp, nextContractFile } from '../helpers/next-contract-app.js';
import { expectAdminResponse } from './admin-contract.js';

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };

describe.each(['error-renamed.yaml', 'link-renamed-expires-at.yaml', 'no-components.yaml', 'no-paths.yaml'])('the admin API under %s', (name) => {
  it('answers every route, errors included, as its document says', async () => {
    const app = await createNextContractApp(name);
    expectAdminResponse(await app.request.get('/__admin/health').expect(200), 'GET', '/__admin/health');
    expectAdminResponse(await app.request.get('/__admin/contract').expect(200), 'GET', '/__admin/contract');
    expectAdminResponse(await app.request.get('/__admin/requests').expect(200), 'GET', '/__admin/requests');
    expectAdminResponse(await app.request.post('/__admin/accounts').send({ name: 'under FILE' }).expect(201), 'POST', '/__admin/accounts');
    // The mock's own errors: a 400 of the admin validator and a 404 of its own, each an Error object.
    expectAdminResponse(await app.request.get('/__admin/links').expect(400), 'GET', '/__admin/links');
    expectAdminResponse(await app.request.get('/__admin/links').query({ account: 'no-such-key' }).expect(404), 'GET', '/__admin/links');
    await app.request.get('/__admin/openapi.yaml').expect(200);
  });

  it("lists an account's links and counts a click, each Link as the API shows it under FILE", async () => {
    const app = await createNextContractApp(name);
    const listed = await app.request.get('/__admin/links').query({ account: DEMO }).expect(200);
    expect(listed.body.links.length).toBeGreaterThan(0);
    const clicked = await app.request.post(`/__admin/links/${listed.body.links[0].id}/clicks`).send({ count: 2 }).expect(200);
    expect(clicked.body.clickCount).toBe(listed.body.links[0].clickCount + 2);
    // A link answer the admin's document refused would be a 500: with FILE's new field, FILE's Link is what judges it.
    if (name === 'link-renamed-expires-at.yaml') expect(Object.keys(clicked.body)).toContain('expiresAt');
    else expect(Object.keys(clicked.body).sort()).toEqual(Object.keys(listed.body.links[0]).sort());
  });
});

describe('a FILE without components, through startMock({ contract }) (and so --contract, MOCK_CONTRACT)', () => {
  it('starts; /__admin/health and /__admin/mcp answer', async () => {
    const mock = await startMock({ contract: nextContractFile('no-components.yaml'), log: () => {} });
    onTestFinished(() => mock.stop());
    expect((await fetch(`${mock.url}/__admin/health`)).status).toBe(200);
    const mcp = await fetch(`${mock.url}/__admin/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(INITIALIZE) });
    expect(mcp.status).toBe(200);
    expect((await fetch(`${mock.url}/ping`, { headers: { 'x-api-key': DEMO } })).status).toBe(200);
  });
});

describe("a 404 for a path FILE lacks names FILE's operations", () => {
  it.each([
    ['no-components.yaml', 'GET /ping'],
    ['no-paths.yaml', 'no operations'],
    ['delete-removed.yaml', 'POST /links and PUT /links/{id}'],
    ['list-links.yaml', 'GET /links, POST /links, PUT /links/{id} and DELETE /links/{id}'],
  ])('%s: %s', async (name, operations) => {
    const app = await createNextContractApp(name);
    const unknown = await app.request.get('/nothing').set('x-api-key', DEMO).expect(404);
    expect(unknown.body).toEqual({ errorDescription: `no operation at GET '/nothing': the API has ${operations}` });
    const root = await app.request.get('/').set('accept', 'application/json').expect(404);
    expect(root.body.errorDescription).toBe(`no operation at GET /: the API has ${operations}; the console is at /__admin/ and the API reference at /docs`);
  });

  it("the root page for browsers names FILE's operations too", async () => {
    const app = await createNextContractApp('no-components.yaml');
    const page = await app.request.get('/').set('accept', 'text/html').expect(200);
    expect(page.text).toContain('The API itself is at <code>GET /ping</code>, with an <code>x-api-key</code> header.');
  });
});
