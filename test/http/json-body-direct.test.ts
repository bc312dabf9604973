// The direct JSON reader (src/http/json-body-direct.ts) does with a request what body-parser does:
// the same bodies, valid and not, sent to two apps, one reading them directly and one through
// body-parser, leave the same req.body, or the same error to the next error handler, field by
// field. The cases the direct reader takes are shown to be taken by it.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Express } from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonBody } from '../../src/http/json-body.js';
import { readsDirectly } from '../../src/http/json-body-direct.js';

const LIMIT = '1mb';
const LIMIT_BYTES = 1024 * 1024;
const JSON_TYPE = 'application/json';

interface Case {
  name: string;
  body: string | Buffer;
  type?: string;
  /** Whether the direct reader takes it (else body-parser reads it in both apps). */
  direct: boolean;
}

const CASES: Case[] = [
  { name: 'an object', body: '{"destinationUrl":"https://example.com","tags":[{"name":"a"}]}', direct: true },
  { name: 'an array', body: '[1,2,{"a":null}]', direct: true },
  { name: 'with charset=utf-8', body: '{"a":1}', type: 'application/json; charset=utf-8', direct: true },
  { name: 'an empty body', body: '', direct: true },
  { name: 'whitespace only', body: ' \n\t ', direct: true },
  { name: 'leading whitespace', body: ' \r\n{"a":1}', direct: true },
  { name: 'a byte order mark', body: '\uFEFF{"a":1}', direct: true },
  { name: 'null', body: 'null', direct: true },
  { name: 'a string', body: '"x"', direct: true },
  { name: 'a number', body: '12', direct: true },
  { name: 'true', body: ' true', direct: true },
  { name: 'the word undefined', body: 'undefined', direct: true },
  { name: 'a hash first', body: '#{"a":1}', direct: true },
  { name: 'truncated', body: '{"a":', direct: true },
  { name: 'trailing garbage', body: '{"a":1}x', direct: true },
  { name: 'a __proto__ key', body: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}', direct: true },
  { name: 'characters of every width', body: '{"t":"é – ☃ 😀 \\u2028"}', direct: true },
  { name: 'bytes that are not UTF-8', body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), direct: true },
  { name: 'an overlong encoding', body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), direct: true },
  { name: 'nested 65 levels', body: `${'['.repeat(65)}${']'.repeat(65)}`, direct: true },
  { name: '1,001 fields', body: JSON.stringify(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`f${i}`, i]))), direct: true },
  { name: 'many chunks (200 KB)', body: JSON.stringify({ text: 'ab'.repeat(100_000) }), direct: true },
  { name: 'over the limit', body: JSON.stringify({ text: 'a'.repeat(LIMIT_BYTES) }), direct: false },
  { name: 'another charset', body: '{"a":1}', type: 'application/json; charset=latin1', direct: false },
  { name: 'an upper-case type', body: '{"a":1}', type: 'Application/JSON', direct: false },
  { name: 'a +json type', body: '{"a":1}', type: 'application/merge-patch+json', direct: false },
];

/** Everything a later step could read of an error: its class and each field body-parser sets. */
function errorFields(error: unknown): Record<string, unknown> {
  const fields = error as Record<string, unknown> & Error;
  const body = fields['body'];
  return {
    class: fields.constructor.name,
    name: fields.name,
    message: fields.message,
    stackHead: fields.stack?.split('\n')[0],
    ownKeys: Object.keys(fields).sort(),
    ...Object.fromEntries(['status', 'statusCode', 'expose', 'type', 'code', 'expected', 'length', 'received', 'limit', 'charset'].map((key) => [key, fields[key]])),
    body: Buffer.isBuffer(body) ? { bytes: body.toString('hex') } : body,
  };
}

type Outcome = { direct: boolean; body?: unknown; ownKeys?: string[]; error?: Record<string, unknown> };

/** What the app sees next, as it sees it; bounded. */
function nextOutcome(seen: Outcome[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the app never finished reading the request')), 5000);
    const push = seen.push.bind(seen);
    seen.push = (...items: Outcome[]): number => {
      seen.push = push;
      clearTimeout(timer);
      resolve(items[0] as Outcome);
      return push(...items);
    };
  });
}

function app(direct: boolean, seen: Outcome[]): Express {
  const made = express();
  made.post(
    '/',
    (req, res, next) => {
      res.locals['direct'] = readsDirectly(req, LIMIT_BYTES);
      next();
    },
    jsonBody(LIMIT, { maxFields: 1000, direct }),
    (req, res) => {
      const outcome = { direct: res.locals['direct'] as boolean, body: JSON.stringify(req.body), ownKeys: Object.getOwnPropertyNames(req.body ?? {}) };
      seen.push(outcome);
      res.json(outcome);
    },
  );
  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    const outcome = { direct: res.locals['direct'] as boolean, error: errorFields(error) };
    seen.push(outcome);
    res.status(418).json(outcome);
  };
  made.use(onError);
  return made;
}

const seenDirect: Outcome[] = [];
const seenGeneral: Outcome[] = [];
const direct = app(true, seenDirect);
const general = app(false, seenGeneral);

async function send(target: Express, { body, type = JSON_TYPE }: Case): Promise<Outcome> {
  const answer = await supertest(target).post('/').set('content-type', type).send(body);
  return answer.body as Outcome;
}

describe('the direct JSON reader against body-parser', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s: the same body or the same error', async (_name, chosen) => {
    const read = await send(direct, chosen);
    const parsed = await send(general, chosen);
    expect(read.direct).toBe(chosen.direct);
    expect(read).toEqual(parsed);
  });
});

describe('a request cut off in its body', () => {
  let servers: Array<ReturnType<Express['listen']>> = [];
  beforeAll(() => {
    servers = [direct.listen(0, '127.0.0.1'), general.listen(0, '127.0.0.1')];
  });
  afterAll(() => {
    for (const server of servers) server.close();
  });

  /** Sends the head and 10 of the 100 bytes promised, then closes once the app has the request; resolves with what it saw. */
  async function cutOff(server: ReturnType<Express['listen']>, seen: Outcome[]): Promise<Outcome> {
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const outcome = nextOutcome(seen);
    const request = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/', headers: { 'content-type': JSON_TYPE, 'content-length': '100' } });
    request.on('error', () => undefined);
    server.once('request', () => setImmediate(() => request.destroy()));
    request.write('{"a":"1234');
    return outcome;
  }

  it('leaves the same "request aborted" error', async () => {
    const read = await cutOff(servers[0]!, seenDirect);
    const parsed = await cutOff(servers[1]!, seenGeneral);
    expect(read.direct).toBe(true);
    expect(read.error?.['type']).toBe('request.aborted');
    expect(read).toEqual(parsed);
  });
});
