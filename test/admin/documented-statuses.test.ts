// The guard of the admin API's statuses: every operation of its document (src/admin/openapi.yaml),
// sent hostile input, answers only a status that operation's entry lists, with an Error object.
// The server's own response validation cannot be that guard: express-openapi-validator checks an
// answer by wrapping res.json in its response step, which comes after its request step; a request
// refused by the body parser (in front of the validator) or by the request step never reaches it,
// so the error handler writes that refusal unchecked, whatever its status.
import type { IncomingMessage } from 'node:http';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Test } from 'supertest';
import { expectMatchesSchema } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';
import { adminContract } from './admin-contract.js';
import { ADMIN_BODY_LIMIT } from '../../src/admin/router.js';
import { bytesOf } from '../../src/http/json-body.js';

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string; enum?: unknown[]; $ref?: string };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, unknown>;
}
type PathItem = Record<string, Operation | Parameter[] | undefined> & { parameters?: Parameter[] };

const METHODS = ['get', 'put', 'post', 'delete'] as const;
const paths = adminContract.document['paths'] as Record<string, PathItem>;

/** Every operation with its path and the parameters its path item and itself declare. */
const operations = Object.entries(paths).flatMap(([path, item]) =>
  METHODS.flatMap((method) => {
    const operation = item[method] as Operation | undefined;
    if (!operation) return [];
    return [{ path, method, operation, parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])] }];
  }),
);

/** Path parameters as a valid request would give them: the route and its checks are reached. */
const PATH_VALUES: Record<string, string> = { apiKey: DEMO, id: 'no-such-link', name: 'snap' };

const adminLimitBytes = bytesOf(ADMIN_BODY_LIMIT);

interface Hostile {
  what: string;
  query?: string;
  type?: string;
  body?: string;
}

/** What each operation is sent: bad query parameters and bodies a caller may send by mistake. */
function hostileInputs(parameters: Parameter[]): Hostile[] {
  const wrongTyped = parameters
    .filter((parameter) => parameter.in === 'query' && (parameter.schema?.type === 'integer' || parameter.schema?.enum))
    .map((parameter) => ({ what: `query ${parameter.name} of the wrong type`, query: `${parameter.name}=not-${parameter.schema?.type ?? 'listed'}` }));
  return [
    { what: 'an unknown query parameter', query: 'limit=5&unknownParameter=1' },
    ...wrongTyped,
    { what: 'a garbage JSON body', type: 'application/json', body: 'garbage' },
    { what: 'JSON that is not an object', type: 'application/json', body: '"x"' },
    { what: 'a body of another content type', type: 'text/plain', body: 'x' },
    { what: 'a JSON body with an unknown field', type: 'application/json', body: '{"unknownField":1}' },
    { what: 'a body over the admin limit', type: 'application/json', body: JSON.stringify({ x: 'x'.repeat(adminLimitBytes) }) },
  ];
}

/** An answer's status and body; an event stream (a 200 that never ends) is left at its headers. */
function send(t: TestApp, method: string, url: string, input: Hostile): Test {
  // Node's superagent hands a parser the IncomingMessage itself.
  let request = t.request[method as 'get'](url).buffer(true).parse((answer, done) => {
    const res = answer as unknown as IncomingMessage;
    if (/^text\/event-stream/.test(res.headers['content-type'] ?? '')) {
      res.destroy();
      return done(null, null);
    }
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => done(null, text === '' ? null : (JSON.parse(text) as unknown)));
  });
  if (input.type !== undefined) request = request.set('content-type', input.type).send(input.body);
  return request;
}

describe('every admin operation answers hostile input with a status its document lists', () => {
  // One mock for the walk: what an input changes (a text/plain reset resets) changes no status of another.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  for (const { path, method, operation, parameters } of operations) {
    const documented = Object.keys(operation.responses);
    const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => PATH_VALUES[name] ?? 'x');
    test.each(hostileInputs(parameters))(`${method.toUpperCase()} ${path} (${operation.operationId}), $what`, async (input) => {
      const res = await send(t, method, input.query ? `${url}?${input.query}` : url, input);
      expect(documented, `${method.toUpperCase()} ${path} answered ${res.status} ${JSON.stringify(res.body)}`).toContain(String(res.status));
      if (res.status >= 400 && res.status !== 503) expectMatchesSchema('Error', res.body);
    });
  }
});
