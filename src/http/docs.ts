// GET /docs: an API reference rendered from openapi.yaml (and the admin API's document) by
// Swagger UI, with its assets served by the mock itself: no external network.
import { join } from 'node:path';
import express, { type Router } from 'express';
import { fileAsset } from './file-asset.js';

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Short-Link Management API: reference (shortlink-mock)</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const init = `window.ui = SwaggerUIBundle({
  urls: [
    { url: '/openapi.yaml', name: 'Short-Link Management API' },
    { url: '/__admin/openapi.yaml', name: 'shortlink-mock admin API' }
  ],
  dom_id: '#swagger-ui',
  // Swagger UI would send the document to an outside validator (validator.swagger.io) when not
  // served from localhost: the mock makes no outside request, ever.
  validatorUrl: null,
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout'
});`;

const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'];

/** Mounted at /docs. */
export function docsRouter(assetsDir: string): Router {
  const router = express.Router();
  router.get('/', (_req, res) => {
    res.type('html').send(page);
  });
  router.get('/init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  for (const asset of ASSETS) {
    router.get(`/${asset}`, fileAsset(join(assetsDir, asset), 3600));
  }
  return router;
}
