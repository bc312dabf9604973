// The mock's own routes behind one check of the path (src/http/gated-routes.ts): an API request
// skips them without a path match each, and every other path is matched as the app's router would.
import express, { type Express, type RequestHandler } from 'express';
import supertest from 'supertest';
import { describe, expect, test } from 'vitest';
import { GatedRoutes } from '../../src/http/gated-routes.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

interface CountedLayer {
  match(path: string): unknown;
}

/** Counts the path matches the app's own router tries (a layer each), from now on. */
function countMatches(app: Express): () => number {
  let matches = 0;
  for (const layer of (app as unknown as { router: { stack: CountedLayer[] } }).router.stack) {
    const match = layer.match.bind(layer);
    layer.match = (path) => {
      matches += 1;
      return match(path);
    };
  }
  return () => matches;
}

const said = (text: string): RequestHandler => (_req, res) => void res.type('text').send(text);

/** The same routes, as layers of an app and behind a gate. */
function bothWays(): { plain: Express; gated: Express } {
  const plain = express();
  const routes = new GatedRoutes();
  for (const [path, text] of [['/__admin', 'admin'], ['/__r', 'visit'], ['/docs', 'docs']] as const) {
    plain.use(path, said(text));
    routes.use(path, said(text));
  }
  plain.get('/openapi.yaml', said('contract'));
  routes.get('/openapi.yaml', said('contract'));
  plain.get(['/', '/favicon.ico'], said('landing'));
  routes.get(['/', '/favicon.ico'], said('landing'));
  const gated = express();
  gated.use(routes.gate());
  for (const app of [plain, gated]) app.use(said('passed on'));
  return { plain, gated };
}

describe('gated routes (gated-routes.ts)', () => {
  test("a create tries two layers of the app's router: the front steps and the API's, not one per route of the mock's own", async () => {
    const t = await createTestApp();
    const matches = countMatches(t.app);
    await t.request.post('/links').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/gated', domain: 'short.test', tags: [] }).expect(201);
    expect(matches()).toBe(2);
  });

  test('every path answers as the same routes as layers of the app answer it: spellings, case, trailing slashes', async () => {
    const { plain, gated } = bothWays();
    const paths = ['/', '//', '/favicon.ico', '/FAVICON.ICO/', '/openapi.yaml', '/OpenAPI.YAML/', '/openapi.yamlx', '/docs', '/Docs/a/b', '/docsx', '/__admin', '/__ADMIN/health', '/__adminx',
      '/__r/short.test/abc', '/__R', '/links', '/l', '/%64ocs', '/d', '/__', '/o/penapi.yaml', '/ocs'];
    for (const path of paths) {
      const [want, got] = await Promise.all([supertest(plain).get(path), supertest(gated).get(path)]);
      expect({ path, status: got.status, text: got.text }).toEqual({ path, status: want.status, text: want.text });
    }
  });

  test('only literal paths are gated: a parameter or a wildcard could match any path', () => {
    for (const path of ['/:id', '/a/:id', '/*all', '/{x}', 'docs']) expect(() => new GatedRoutes().use(path, said('x'))).toThrow(/literal paths/);
  });
});
