// The JSON body parser of the API and of the admin API: express.json, plus two checks on the
// bytes it has read (after any gzip or deflate is undone) before they are parsed:
//   - they are UTF-8 (RFC 8259): invalid bytes would otherwise become U+FFFD and be stored;
//   - they nest at most MAX_JSON_DEPTH levels (D28), so every later walk over the body is bounded;
//   - for the API, they hold at most MAX_JSON_FIELDS fields (json-depth.ts says why), in the same pass.
// It also notes how many bytes the body really had: the journal decides by that whether a body
// is small enough to keep as it is (Content-Length counts compressed bytes). A client that
// half-closed after its request still has its body read (half-closed-body.ts).
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler, type Response } from 'express';
import typeis from 'type-is';
import { parseAfterHalfClose } from './half-closed-body.js';
import { readJsonDirectly, readsDirectly } from './json-body-direct.js';
import { jsonOverLimits, MAX_JSON_DEPTH } from './json-depth.js';

/** body-parser keeps `type` from a verify error; src/http/errors.ts maps these to 400s. */
export const BODY_NOT_UTF8 = 'entity.not.utf8';
export const BODY_TOO_DEEP = 'entity.too.deep';
export const BODY_TOO_MANY_FIELDS = 'entity.too.many.fields';

const BODY_BYTES = 'requestBodyBytes';

class BodyRefused extends Error {
  readonly status = 400;
  constructor(readonly type: string) {
    super(type);
  }
}

/**
 * maxFields: the fields a body may hold in all (the admin API's bodies are free-form maps: none).
 * direct: false sends every request to body-parser (the test that compares the two readers).
 */
export function jsonBody(limit: string, { maxFields = Number.POSITIVE_INFINITY, direct = true } = {}): RequestHandler {
  const verify = (res: Response, bytes: Buffer, encoding = 'utf-8'): void => {
    noteBodyBytes(res, bytes.length);
    if (encoding.toLowerCase() !== 'utf-8' || !isUtf8(bytes)) throw new BodyRefused(BODY_NOT_UTF8);
    const over = jsonOverLimits(bytes, MAX_JSON_DEPTH, maxFields);
    if (over) throw new BodyRefused(over === 'depth' ? BODY_TOO_DEEP : BODY_TOO_MANY_FIELDS);
  };
  const general = parseAfterHalfClose(express.json({ limit, type: isJsonRequest, verify: (_req, res, bytes, encoding) => verify(res as Response, bytes, encoding) }));
  if (!direct) return general;
  // The usual request is read directly (json-body-direct.ts says why); the same checks either way.
  const limitBytes = bytesOf(limit);
  return (req, res, next) => (readsDirectly(req, limitBytes) ? readJsonDirectly(req, res, next, verify) : general(req, res, next));
}

/** '64kb', '1mb' as body-parser reads them (the `bytes` package: 1 kb = 1,024 bytes). */
export function bytesOf(limit: string): number {
  const match = /^(\d+)(kb|mb)$/.exec(limit);
  if (!match) throw new Error(`body limit '${limit}': write it as <n>kb or <n>mb`);
  return Number(match[1]) * (match[2] === 'kb' ? 1024 : 1024 * 1024);
}

/**
 * body-parser's own check (type-is on 'application/json'), with the two spellings nearly every
 * client sends answered at once: the general check parses the Content-Type header with two
 * regular expressions and looks the type up, 2.8 µs of a create's CPU. Any other spelling gets
 * the general check, so what is parsed is exactly what body-parser would parse.
 */
function isJsonRequest(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if ((type === 'application/json' || type === 'application/json; charset=utf-8') && typeis.hasBody(req)) return true;
  return Boolean(typeis(req, JSON_TYPES));
}

const JSON_TYPES = ['application/json'];

/** The size of the parsed body as read (decompressed), or undefined when no body was parsed. */
export function parsedBodyBytes(res: Response): number | undefined {
  return res.locals[BODY_BYTES] as number | undefined;
}

/** Notes the size of a body read another way (the proxy reads the bytes itself): the validator picks its mode by it. */
export function noteBodyBytes(res: Response, bytes: number): void {
  res.locals[BODY_BYTES] = bytes;
}
