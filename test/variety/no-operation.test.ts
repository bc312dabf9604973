// Answers that are no operation (the 404 for a path the API lacks, the 405 for a method a path
// does not take) vary too, as the pseudo-operations `unknownPath` and `wrongMethod`, judged by the
// same ResponseChecker against the Error object openapi.yaml says they are.
import { describe, expect, it } from 'vitest';
import { ResponseChecker } from '../../src/contract/response-checker.js';
import { contract, createTestApp, DEMO } from '../helpers/test-app.js';

type App = Awaited<ReturnType<typeof createTestApp>>;
const lastVariety = async (app: App) => ((await app.request.get('/__admin/requests?limit=1').expect(200)).body as { entries: { variety: unknown; verdict: string }[] }).entries[0];

describe('variety on answers that are no operation', () => {
  it('varies the 404 of an unknown path: errorDescription, envelope; the journal names them', async () => {
    const app = await createTestApp({ variety: { seed: 4, only: ['unknownPath.errorDescription:longest', 'unknownPath.content-type:no-charset'] } });
    const res = await app.request.get('/nowhere').set('x-api-key', DEMO).expect(404);
    expect([...(res.body.errorDescription as string)]).toHaveLength(4096);
    expect(res.body.errorDescription).toMatch(/^no operation at GET '\/nowhere'/);
    expect(res.headers['content-type']).toBe('application/json');
    expect((await lastVariety(app))?.variety).toEqual({ seed: 4, dimensions: ['unknownPath.errorDescription:longest', 'unknownPath.content-type:no-charset'] });
  });

  it("varies GET /'s 404 for an API client too (no operation either), not its page for a browser", async () => {
    const app = await createTestApp({ variety: { seed: 4, only: ['unknownPath.errorDescription:non-ascii'] } });
    const res = await app.request.get('/').set('accept', 'application/json').expect(404);
    expect(res.body.errorDescription).toMatch(/^no operation at GET \/: .* — /);
    const page = await app.request.get('/').set('accept', 'text/html').expect(200);
    expect(page.text).toContain('<h1>shortlink-mock</h1>');
  });

  it('varies the 405 of a wrong method and keeps its Allow header', async () => {
    const app = await createTestApp({ variety: { seed: 4, only: ['wrongMethod.errorDescription:non-ascii', 'wrongMethod.framing:chunked'] } });
    const res = await app.request.patch('/links').expect(405);
    expect(res.headers['allow']).toBe('POST');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.body.errorDescription).toMatch(/^method PATCH is not allowed .* — /);
  });

  it('under x-mock-variety too, and never an admin answer', async () => {
    const app = await createTestApp();
    await app.request.put('/__admin/variety').send({ seed: 1, only: ['unknownPath.encoding:gzip'] }).expect(200);
    const res = await app.request.get('/nowhere').set('accept-encoding', 'gzip').set('x-mock-variety', '3').expect(404);
    expect(res.headers['content-encoding']).toBe('gzip');
    const admin = await app.request.get('/__admin/nowhere').set('accept-encoding', 'gzip').expect(404);
    expect(admin.headers['content-encoding']).toBeUndefined();
  });

  it('answers a variant the contract refuses with a 500, never sent', async () => {
    const app = await createTestApp({ variety: { seed: 3, only: ['unknownPath.errorDescription:longest'] } });
    for (const dimension of app.variety.catalogue) if (dimension.kind === 'body' && dimension.operationId === 'unknownPath') dimension.variant = { ...dimension.variant, apply: () => 42 };
    const res = await app.request.get('/nowhere').expect(500);
    expect(res.body.errorDescription).toContain('would break the contract');
    expect((await lastVariety(app))?.verdict).toBe('contract-violation');
  });

  it("the ResponseChecker judges them as the Error object", () => {
    const checker = new ResponseChecker(contract.document as ConstructorParameters<typeof ResponseChecker>[0]);
    expect(checker.checkResponse('unknownPath', 404, 'application/json', '{"errorDescription":"x"}')).toEqual([]);
    expect(checker.checkResponse('wrongMethod', 405, 'application/json', '{"errorDescription":""}')).not.toEqual([]);
    expect(checker.operationList().map(({ operationId }) => operationId)).toEqual(['createLink', 'updateLink', 'deleteLink']);
  });
});
