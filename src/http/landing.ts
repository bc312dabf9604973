// What a browser meets at the mock's root: GET / is no operation of the API, so an API client gets
// the usual 404 Error object, but one that names the places worth visiting; a browser (it asks for
// HTML first) gets a small page with the same links. And /favicon.ico, which every browser asks
// for, is served, so it does not show up as a stream of 404s.
import express, { type Router } from 'express';
import type { NoOperation } from '../contract/no-operation.js';
import { errors } from '../core/errors.js';
import { namedList } from '../core/named-list.js';
import { xmlText } from '../contract/xml-escape.js';
import { NO_OPERATION } from './authenticate.js';
import { fileAsset } from './file-asset.js';

/** The page, naming the operations of the contract served (a FILE's, not always the shipped three). */
const page = (operations: readonly string[]): string => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>shortlink-mock</title>
  <link rel="icon" href="/favicon.ico">
  <style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; }</style>
</head>
<body>
  <h1>shortlink-mock</h1>
  <p>A stateful mock of the Short-Link Management API. ${apiSentence(operations)}</p>
  <ul>
    <li><a href="/__admin/">/__admin/</a>: the console (journal, coverage, scenarios, accounts, snapshots)</li>
    <li><a href="/docs">/docs</a>: the API reference, with "Try it out"</li>
    <li><a href="/openapi.yaml">/openapi.yaml</a>: the contract</li>
  </ul>
</body>
</html>`;

/** `The API itself is at <code>POST /links</code>, … with an x-api-key header.`, the operations as the 404 names them. */
function apiSentence(operations: readonly string[]): string {
  if (operations.length === 0) return 'The contract it serves has no operations.';
  return `The API itself is at ${namedList(operations.map((operation) => `<code>${xmlText(operation)}</code>`))}, with an <code>x-api-key</code> header.`;
}

/** Mounted at the root, after the API's own routes could not have matched `/`. `operations`: the contract's (OperationTable). */
export function landingRouter(faviconFile: string | undefined, operations: readonly string[]): Router {
  const router = express.Router();
  const html = page(operations);
  router.get('/', (req, res) => {
    if (req.accepts(['json', 'html']) === 'html') {
      res.type('html').send(html);
      return;
    }
    // An API client's 404 for a path the API lacks: variety varies it like any other (unknownPath).
    res.locals[NO_OPERATION] = 'unknownPath' satisfies NoOperation;
    throw errors.rootNotFound(operations);
  });
  if (faviconFile) router.get('/favicon.ico', fileAsset(faviconFile, 86_400));
  return router;
}
