// GET /docs: an API reference rendered by Swagger UI from openapi.yaml, with every asset served
// by the mock itself (no external network).
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('GET /docs', () => {
  it.each(['/docs', '/docs/'])('%s is an HTML page that references only local /docs/ assets', async (path) => {
    const res = await t.request.get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text).not.toMatch(/(src|href)=["']\/\//);
    const references = [...res.text.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map((match) => match[1]);
    expect(references.length).toBeGreaterThanOrEqual(3);
    for (const reference of references) expect(reference).toMatch(/^\/docs\/[\w.-]+$/);
    expect(references).toEqual(expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/init.js']));
  });

  it('every asset the page references is served', async () => {
    const page = await t.request.get('/docs');
    for (const [, reference] of page.text.matchAll(/(?:src|href)=["']([^"']+)["']/g)) {
      const res = await t.request.get(reference ?? '');
      expect({ reference, status: res.status }).toEqual({ reference, status: 200 });
    }
  });

  it.each([
    ['/docs/swagger-ui-bundle.js', /javascript/, 'SwaggerUIBundle'],
    ['/docs/swagger-ui-standalone-preset.js', /javascript/, 'SwaggerUIStandalonePreset'],
    ['/docs/swagger-ui.css', /^text\/css/, '.swagger-ui'],
  ])('%s is served locally with its content type', async (path, type, marker) => {
    const res = await t.request.get(path).buffer(true).parse((response, done) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(type);
    expect((res.body as string).length).toBeGreaterThan(10_000);
    expect(res.body as string).toContain(marker);
  });

  it('/docs/init.js points Swagger UI at the served contracts', async () => {
    const res = await t.request.get('/docs/init.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.text).toMatch(/url:\s*'\/openapi\.yaml'/);
    expect(res.text).toContain('SwaggerUIBundle');
    expect(res.text).not.toMatch(/https?:\/\//);
    for (const [, url] of res.text.matchAll(/url:\s*'([^']+)'/g)) expect((await t.request.get(url ?? '')).status).toBe(200);
  });

  it('an unknown asset is not served', async () => {
    expect((await t.request.get('/docs/../package.json')).status).not.toBe(200);
    expect((await t.request.get('/docs/index.html')).status).toBe(404);
  });
});
