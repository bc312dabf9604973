// The request body as bytes, for forwarding: whatever its content type, up to the API's body limit
// (over it, the same 400 Error object as in mock mode, and nothing is forwarded). A compressed
// body is inflated here and goes on as plain bytes (src/proxy/headers.ts drops its encoding).
import express, { type RequestHandler } from 'express';
import { BODY_LIMIT } from '../http/errors.js';
import { parseAfterHalfClose } from '../http/half-closed-body.js';

/** Where the bytes are kept (res.locals); req.body is left for the parsed JSON. */
export const RAW_BODY = 'rawRequestBody';

export function rawBody(): RequestHandler {
  const read = parseAfterHalfClose(express.raw({ type: () => true, limit: BODY_LIMIT }));
  return (req, res, next) =>
    read(req, res, (error?: unknown) => {
      if (error) return next(error);
      res.locals[RAW_BODY] = Buffer.isBuffer(req.body) ? req.body : undefined;
      req.body = undefined;
      next();
    });
}
