// The JSON request nearly every client sends, read without body-parser: UTF-8 JSON with a
// Content-Length within the limit, no Content-Encoding, from a socket that still reads. For it,
// body-parser 2.4 spends more than the reading itself: iconv-lite looks the charset up twice
// (encodingExists, then decode through a BOM-stripping decoder object), and raw-body binds its
// callback to a new AsyncResource; about 11 µs of a create's 295 in a CPU profile at 1,500
// creates/s (bench/profile-notes.md, sixth session). Every other request goes to body-parser.
//
// What body-parser does with such a request is done here step for step, with the same errors from
// the same library (http-errors), so that nothing after the parser can tell the two apart:
// test/http/json-body-direct.test.ts sends the same bodies, valid and not, through both and
// compares req.body and every field of the error.
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import createError from 'http-errors';

/** Throws to refuse the bytes (json-body.ts's checks); body-parser's `verify` option, minus the request. */
export type VerifyBytes = (res: Response, bytes: Buffer) => void;

const DIGITS = /^[0-9]+$/;

/** Node sets `upgrade` on every request it parses; its types do not declare it. */
type Upgradable = IncomingMessage & { upgrade?: boolean };

/**
 * True when body-parser's json() would read this request from the request itself as UTF-8, with a
 * length it states within the limit: the same request can then be read here instead.
 */
export function readsDirectly(req: IncomingMessage, limitBytes: number): boolean {
  const headers = req.headers;
  const type = headers['content-type'];
  if (type !== 'application/json' && type !== 'application/json; charset=utf-8') return false;
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  if (length === undefined || !DIGITS.test(length) || Number(length) > limitBytes) return false;
  // Not finished for on-finished (a socket that reads, a body not read yet), and a stream raw-body
  // would accept (no string encoding set): anything else is body-parser's to answer.
  const socket = req.socket as IncomingMessage['socket'] | null;
  return !(req as Upgradable).upgrade && socket !== null && socket.readable && req.readable && req.readableEncoding === null;
}

/** Reads, checks and parses the body of a request readsDirectly accepted; next() as body-parser calls it. */
export function readJsonDirectly(req: Request, res: Response, next: NextFunction, verify: VerifyBytes): void {
  if (!('body' in (req as object))) (req as { body?: unknown }).body = undefined;
  const length = Number(req.headers['content-length']);
  const chunks: Buffer[] = [];
  let received = 0;
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const stop = (): void => {
    req.removeListener('aborted', onAborted);
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('error', onEnd);
    req.removeListener('close', stop);
  };
  // raw-body's errors, then body-parser's dump of the rest of the request before next().
  const fail = (error: Error): void => {
    stop();
    req.unpipe();
    req.pause();
    const failed = createError(400, createError(400, error));
    if (isFinished(req)) return next(failed);
    let called = false;
    const once = (): void => {
      if (called) return;
      called = true;
      req.removeListener('end', once);
      req.removeListener('close', once);
      next(failed);
    };
    req.on('end', once);
    req.on('close', once);
    req.resume();
  };
  function onAborted(): void {
    fail(createError(400, 'request aborted', { code: 'ECONNABORTED', expected: length, length, received, type: 'request.aborted' }));
  }
  function onEnd(error?: Error): void {
    if (error) return fail(error);
    if (received !== length) return fail(createError(400, 'request size did not match content length', { expected: length, length, received, type: 'request.size.invalid' }));
    stop();
    parseRead(req, res, next, verify, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
  }
  req.on('aborted', onAborted);
  req.on('close', stop);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onEnd);
}

/** on-finished's isFinished for a request. */
function isFinished(req: IncomingMessage): boolean {
  const socket = req.socket as IncomingMessage['socket'] | null;
  return Boolean((req as Upgradable).upgrade || !socket || !socket.readable || (req.complete && !req.readable));
}

/** body-parser's steps after the read: verify, decode as UTF-8 (a BOM dropped, as iconv-lite does), parse strictly. */
function parseRead(req: Request, res: Response, next: NextFunction, verify: VerifyBytes, body: Buffer): void {
  try {
    verify(res, body);
  } catch (error) {
    next(createError(403, error as Error, { body, type: (error as { type?: string }).type || 'entity.verify.failed' }));
    return;
  }
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    req.body = parseStrictly(text);
  } catch (error) {
    next(createError(400, error as Error, { body: text, type: (error as { type?: string }).type || 'entity.parse.failed' }));
    return;
  }
  next();
}

// body-parser's strict parse (lib/types/json.js), with its messages.
const FIRST_NON_WHITESPACE = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d]|$)/;
const SYNTAX_CHAR = '#';
const SYNTAX_RUN = /#+/g;

function parseStrictly(text: string): unknown {
  if (text.length === 0) return {};
  if (text[0] !== '{' && text[0] !== '[') {
    const first = FIRST_NON_WHITESPACE.exec(text)?.[1] || undefined;
    if (first !== '{' && first !== '[') throw strictSyntaxError(text, first);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const { message, stack } = error as Error;
    throw normalizedSyntaxError(error as Error, message, stack ?? '');
  }
}

function strictSyntaxError(text: string, char: string | undefined): Error {
  // body-parser calls indexOf(undefined) for a text of whitespace only: it looks for "undefined".
  const index = text.indexOf(String(char));
  const partial = index === -1 ? '' : text.substring(0, index) + SYNTAX_CHAR.repeat(text.length - index);
  try {
    JSON.parse(partial);
    throw new SyntaxError('strict violation');
  } catch (error) {
    const { message, stack } = error as Error;
    return normalizedSyntaxError(error as Error, message.replace(SYNTAX_RUN, (placeholder) => text.substring(index, index + placeholder.length)), stack ?? '');
  }
}

function normalizedSyntaxError(error: Error, message: string, stack: string): Error {
  for (const key of Object.getOwnPropertyNames(error)) if (key !== 'stack' && key !== 'message') delete (error as unknown as Record<string, unknown>)[key];
  error.stack = stack.replace(error.message, message);
  error.message = message;
  return error;
}
