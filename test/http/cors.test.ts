// corsFor answers simple requests from any origin itself: its headers must be exactly those of
// the cors package, and everything else (preflights, listed origins) must be the package's own.
import cors from 'cors';
import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { corsFor } from '../../src/http/cors.js';

const OPTIONS: cors.CorsOptions = {
  origin: '*',
  methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  allowedHeaders: ['x-api-key', 'content-type'],
  exposedHeaders: ['x-contract-violations', 'x-other'],
  maxAge: 600,
};

function appWith(handler: RequestHandler) {
  const app = express();
  app.use(handler);
  app.all('/{*any}', (_req, res) => void res.status(200).json({ ok: true }));
  return app;
}

/** The CORS headers of an answer, by name. */
function corsHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'));
}

describe('corsFor', () => {
  const requests: [string, Record<string, string>][] = [
    ['GET', {}],
    ['POST', { origin: 'https://app.example' }],
    ['DELETE', { origin: 'null' }],
    ['OPTIONS', { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key' }],
    ['OPTIONS', {}],
  ];
  for (const options of [OPTIONS, { ...OPTIONS, origin: ['https://app.example'] }, { ...OPTIONS, exposedHeaders: [] }]) {
    for (const [method, headers] of requests) {
      test(`${method} ${JSON.stringify(headers)} with origin ${JSON.stringify(options.origin)}: the same headers and status as cors`, async () => {
        const send = (handler: RequestHandler) => request(appWith(handler))[method.toLowerCase() as 'get' | 'post' | 'delete' | 'options']('/links').set(headers);
        const [a, b] = await Promise.all([send(corsFor(options)), send(cors(options))]);
        expect(a.status).toBe(b.status);
        expect(corsHeaders(a.headers as Record<string, string>)).toEqual(corsHeaders(b.headers as Record<string, string>));
      });
    }
  }
});
