// The direct JSON answer (src/http/json-answer.ts) puts on the wire exactly what Express's res.json
// does: the same status, headers in the same order with the same values, and the same bytes,
// for the answers it takes and for those it leaves to Express.
import type { IncomingMessage } from 'node:http';
import express, { type Express } from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { directJson } from '../../src/http/json-answer.js';

interface Case {
  name: string;
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  status: number;
  body: unknown;
  header?: [string, string];
}

const LONG = { destinationUrl: `https://example.com/${'a'.repeat(1500)}`, tags: Array.from({ length: 20 }, (_, i) => ({ id: `tag_${i}`, name: `tag ${i}` })) };
const CASES: Case[] = [
  { name: 'a created link', method: 'post', status: 201, body: { id: 'lnk_1', slug: 'abc', title: 'é – 😀 \u2028 "quoted" <tag>', tags: [] } },
  { name: 'an update', method: 'put', status: 200, body: [1, 'two', { three: null }] },
  { name: 'an Error object', method: 'delete', status: 400, body: { errorDescription: 'bad', code: 'LINK_LIMIT_REACHED' } },
  { name: 'a body over 1,000 bytes', method: 'patch', status: 200, body: LONG },
  { name: 'a JSON string', method: 'post', status: 200, body: 'text' },
  { name: 'null', method: 'post', status: 500, body: null },
  { name: 'a number', method: 'post', status: 200, body: 42 },
  { name: 'undefined', method: 'post', status: 200, body: undefined },
  { name: 'a 204', method: 'post', status: 204, body: { ignored: true } },
  { name: 'a 205', method: 'put', status: 205, body: { ignored: true } },
  { name: 'a GET', method: 'get', status: 200, body: { read: true } },
  { name: 'a Content-Type set before', method: 'post', status: 400, body: { errorDescription: 'x' }, header: ['Content-Type', 'application/problem+json'] },
  { name: 'a Transfer-Encoding set before', method: 'post', status: 200, body: { chunked: true }, header: ['Transfer-Encoding', 'chunked'] },
];

function app(direct: boolean, settings: Record<string, unknown>): Express {
  const made = express();
  for (const [name, value] of Object.entries(settings)) made.set(name, value);
  if (direct) made.response.json = directJson(made.response.json);
  made.all('/case/:index', (req, res) => {
    const chosen = CASES[Number(req.params['index'])] as Case;
    if (chosen.header) res.setHeader(...chosen.header);
    res.status(chosen.status).json(chosen.body);
  });
  return made;
}

/** Status, headers in order (but the date, which moves), and the bytes. */
async function wire(target: Express, index: number): Promise<{ status: number; headers: string[]; body: string }> {
  const chosen = CASES[index] as Case;
  const response = await supertest(target)[chosen.method](`/case/${index}`).buffer(true).parse((res, done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => done(null, text));
  });
  const raw = (response as unknown as { res: IncomingMessage }).res.rawHeaders;
  const headers = raw.flatMap((value, i) => (i % 2 === 0 && value.toLowerCase() !== 'date' ? [`${value}: ${raw[i + 1] ?? ''}`] : []));
  return { status: response.status, headers, body: response.body as string };
}

describe('the direct JSON answer', () => {
  // The mock's app turns ETags off; Express's defaults are checked too (they go to Express).
  const settingsCases: Array<[string, Record<string, unknown>]> = [
    ["the mock's settings (no ETag)", { etag: false, 'x-powered-by': false }],
    ["Express's defaults (weak ETags)", {}],
    ['JSON spaces set', { etag: false, 'json spaces': 2 }],
    ['JSON escape set', { etag: false, 'json escape': true }],
    ['a JSON replacer set', { etag: false, 'json replacer': (_key: string, value: unknown) => (value === 42 ? 43 : value) }],
  ];
  it.each(settingsCases)('writes what Express writes, case by case, with %s', async (_name, settings) => {
    const direct = app(true, settings);
    const plain = app(false, settings);
    for (let index = 0; index < CASES.length; index += 1) {
      const [ours, express5] = [await wire(direct, index), await wire(plain, index)];
      expect(ours, (CASES[index] as Case).name).toEqual(express5);
    }
  });

  it('answers a plain JSON body itself, without Express', async () => {
    let expressCalls = 0;
    const made = express();
    made.set('etag', false);
    const expressJson = made.response.json;
    made.response.json = directJson(function counted(this: express.Response, body: unknown) {
      expressCalls += 1;
      return expressJson.call(this, body);
    });
    made.post('/', (_req, res) => res.status(201).json({ created: true }));
    made.get('/', (_req, res) => res.json({ read: true }));
    await supertest(made).post('/').expect(201, { created: true }).expect('content-type', 'application/json; charset=utf-8');
    expect(expressCalls).toBe(0);
    await supertest(made).get('/').expect(200, { read: true });
    expect(expressCalls).toBe(1);
  });
});
