// Express's res.json, with the answer the API gives on nearly every request sent directly. For a
// JSON body Express's json() and send() set Content-Type twice, the second time through
// setCharset (the content-type package parses and formats the header again) and mime-types, read
// four headers back, and ask for the request's freshness: about 4 µs of a create's CPU, to arrive
// at the same two headers every time. The direct path writes exactly what Express writes
// (test/http/json-answer.test.ts compares the bytes on the wire); anything it would treat
// differently goes to Express itself: GET and HEAD (freshness, no body), statuses without a body,
// a Content-Type or Transfer-Encoding already set, and an app whose JSON or ETag settings are not
// Express's defaults. A body the response validator serialised already (json-text.ts: a GET
// answer whose verdict it keeps) is sent as that text, not serialised a second time.
import type { Response } from 'express';
import { takeJsonText } from './json-text.js';

type Json = (this: Response, body: unknown) => Response;

const NO_BODY_STATUSES = new Set([204, 205, 304]);

export function directJson(expressJson: Json): Json {
  return function json(this: Response, body: unknown): Response {
    const made = takeJsonText(body);
    if (made !== undefined && plainJsonSettings(this)) return sendJsonText(this, made);
    if (!plainJsonAnswer(this)) return expressJson.call(this, body);
    const text = JSON.stringify(body) as string | undefined;
    if (text === undefined) return expressJson.call(this, body);
    this.setHeader('Content-Type', 'application/json; charset=utf-8');
    this.setHeader('Content-Length', String(Buffer.byteLength(text)));
    this.end(text, 'utf8');
    return this;
  };
}

/** An answer Express would give as `JSON.stringify(body)` under its two usual headers, and nothing else. */
function plainJsonAnswer(res: Response): boolean {
  const method = res.req.method;
  if (method === 'GET' || method === 'HEAD' || NO_BODY_STATUSES.has(res.statusCode)) return false;
  if (res.hasHeader('content-type') || res.hasHeader('transfer-encoding')) return false;
  return plainJsonSettings(res) && typeof (res.app.settings as Record<string, unknown>)['etag fn'] !== 'function';
}

/** Express's res.json serialises a body as JSON.stringify does: no replacer, spaces or escaping set. */
function plainJsonSettings(res: Response): boolean {
  const settings = res.app.settings as Record<string, unknown>;
  return settings['json replacer'] === undefined && settings['json spaces'] === undefined && !settings['json escape'];
}

/** What Express's res.json does with the text it made: its Content-Type unless one is set, then res.send. */
function sendJsonText(res: Response, text: string): Response {
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json');
  return res.send(text);
}
