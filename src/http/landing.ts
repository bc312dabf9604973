// What a browser meets at the mock's root: GET / is no operation of the API, so an API client gets
// the usual 404 Error object, but one that names the places worth visiting; a browser (it asks for
// HTML first) gets a small page with the same links. And /favicon.ico, which every browser asks
// for, is served, so it does not show up as a stream of 404s.
import express, { type Router } from 'express';
import type { NoOperation } from '../contract/no-operation.js';
import { errors } from '../core/errors.js';
import { NO_OPERATION } from './authenticate.js';

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>shortlink-mock</title>
  <link rel="icon" href="/favicon.ico">
  <style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; }</style>
</head>
<body>
  <h1>shortlink-mock</h1>
  <p>A stateful mock of the Short-Link Management API. The API itself is at <code>POST /links</code>,
  <code>PUT /links/{id}</code> and <code>DELETE /links/{id}</code>, with an <code>x-api-key</code> header.</p>
  <ul>
    <li><a href="/__admin/">/__admin/</a>: the console (journal, coverage, scenarios, accounts, snapshots)</li>
    <li><a href="/docs">/docs</a>: the API reference, with "Try it out"</li>
    <li><a href="/openapi.yaml">/openapi.yaml</a>: the contract</li>
  </ul>
</body>
</html>`;

/** Mounted at the root, after the API's own routes could not have matched `/`. */
export function landingRouter(faviconFile: string | undefined): Router {
  const router = express.Router();
  router.get('/', (req, res) => {
    if (req.accepts(['json', 'html']) === 'html') {
      res.type('html').send(page);
      return;
    }
    // An API client's 404 for a path the API lacks: variety varies it like any other (unknownPath).
    res.locals[NO_OPERATION] = 'unknownPath' satisfies NoOperation;
    throw errors.rootNotFound();
  });
  if (faviconFile) router.get('/favicon.ico', (_req, res) => res.sendFile(faviconFile, { maxAge: '1d' }));
  return router;
}
