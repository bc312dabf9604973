// The JSON body parser of the API and of the admin API: express.json, plus two checks on the
// bytes it has read (after any gzip or deflate is undone) before they are parsed:
//   - they are UTF-8 (RFC 8259): invalid bytes would otherwise become U+FFFD and be stored;
//   - they nest at most MAX_JSON_DEPTH levels (D28), so every later walk over the body is bounded.
// It also notes how many bytes the body really had: the journal decides by that whether a body
// is small enough to keep as it is (Content-Length counts compressed bytes). A client that
// half-closed after its request still has its body read (half-closed-body.ts).
import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler, type Response } from 'express';
import { parseAfterHalfClose } from './half-closed-body.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

/** body-parser keeps `type` from a verify error; src/http/errors.ts maps these to 400s. */
export const BODY_NOT_UTF8 = 'entity.not.utf8';
export const BODY_TOO_DEEP = 'entity.too.deep';

const BODY_BYTES = 'requestBodyBytes';

class BodyRefused extends Error {
  readonly status = 400;
  constructor(readonly type: string) {
    super(type);
  }
}

export function jsonBody(limit: string): RequestHandler {
  return parseAfterHalfClose(
    express.json({
      limit,
      verify: (_req, res, bytes, encoding) => {
        (res as Response).locals[BODY_BYTES] = bytes.length;
        if (encoding.toLowerCase() !== 'utf-8' || !isUtf8(bytes)) throw new BodyRefused(BODY_NOT_UTF8);
        if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw new BodyRefused(BODY_TOO_DEEP);
      },
    }),
  );
}

/** The size of the parsed body as read (decompressed), or undefined when no body was parsed. */
export function parsedBodyBytes(res: Response): number | undefined {
  return res.locals[BODY_BYTES] as number | undefined;
}
