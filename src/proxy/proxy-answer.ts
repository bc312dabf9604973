// The last step of a proxied request: send it on, judge the upstream's answer against openapi.yaml,
// and give the client that answer unchanged with the count of violations in a header; or, with
// --proxy-strict and an off-contract answer, a 502 Error object naming the violations; or, when the
// upstream gives no answer, a 502 Error object with the reason. What happened is left in res.locals
// for the journal (src/http/record-requests.ts).
import type { Request, RequestHandler, Response } from 'express';
import { errors } from '../core/errors.js';
import { capText, type Verdict, type Violation } from '../core/journal.js';
import { printable } from '../core/printable.js';
import { keepFirst } from '../core/violations.js';
import type { ResponseChecker } from '../contract/response-checker.js';
import { sendError } from '../http/errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../http/json-depth.js';
import { UPSTREAM } from '../http/record-requests.js';
import { elapsedMs, type Forwarded, type Upstream } from './forward.js';
import { clientResponseHeaders, upstreamRequestHeaders, VIOLATIONS_HEADER } from './headers.js';
import { describeKept, keepBothSides, requestSideOf, totalOf } from './kept-violations.js';
import { RAW_BODY } from './raw-body.js';
import { acceptedRefusedRequest, decodedText, responseViolations, type UpstreamAnswer } from './response-check.js';

export interface ProxyAnswerOptions {
  upstream: Upstream;
  checker: ResponseChecker;
  /** --proxy-strict: an off-contract answer becomes a 502. */
  strict: boolean;
  /** Where a line about each off-contract answer or failed upstream goes (always, even with --quiet). */
  log: (line: string) => void;
}

export function proxyAnswer(options: ProxyAnswerOptions): RequestHandler {
  const host = new URL(options.upstream.origin).host;
  return async (req, res) => {
    // `GET *` and the like (Node accepts `*` as a target): nothing of the API, and nothing to join to the upstream's URL.
    if (!req.originalUrl.startsWith('/')) throw errors.pathNotFound(req.method, req.originalUrl);
    const raw = res.locals[RAW_BODY] as Buffer | undefined;
    const cancelled = new AbortController();
    // A client that gives up takes its upstream request with it.
    res.on('close', () => void (res.writableFinished || cancelled.abort()));
    const started = performance.now();
    const slot = await options.upstream.slots.acquire(options.upstream.timeoutMs, cancelled.signal);
    if (res.destroyed) return typeof slot === 'function' ? slot() : undefined;
    const url = options.upstream.urlOf(req.path);
    if (typeof slot !== 'function') return failed(options, req, res, url, { kind: 'failed', reason: slot.refused, durationMs: elapsedMs(started) });
    // Held until the client has the answer (or is gone): until then the answer is in memory.
    res.on('close', slot);
    const forwarded = await options.upstream.send({ method: req.method, target: req.originalUrl, headers: upstreamRequestHeaders(req.headers, host, raw), body: raw }, cancelled.signal, started);
    if (res.destroyed) return;
    if (forwarded.kind === 'failed') return failed(options, req, res, url, forwarded);
    const requestSide = requestSideOf(res);
    const answer = { status: forwarded.status, contentType: header(forwarded.headers['content-type']), contentEncoding: header(forwarded.headers['content-encoding']), body: forwarded.body };
    const text = decodedText(answer);
    const operationId = (res.locals['operationId'] as string | null | undefined) ?? null;
    const responseSide = [...judgedAnswer(options.checker, operationId, answer, text), ...acceptedRefusedRequest(operationId, forwarded.status, requestSide.kept)];
    const violations = keepBothSides(res, requestSide, responseSide);
    const total = totalOf(violations);
    res.locals[UPSTREAM] = { url, status: forwarded.status, durationMs: forwarded.durationMs };
    res.locals['responseBody'] = typeof text === 'string' ? readBody(text) : null;
    res.locals['verdict'] = (responseSide.length ? 'contract-violation' : totalOf(requestSide) ? 'invalid-request' : 'ok') satisfies Verdict;
    if (total) options.log(printable(`CONTRACT VIOLATION ${req.method} ${req.originalUrl} → upstream ${forwarded.status}: ${describeKept(violations)}`));
    if (options.strict && responseSide.length) {
      res.setHeader(VIOLATIONS_HEADER, String(total));
      const rules = keepFirst(responseSide.map((violation) => violation.rule));
      return sendError(res, errors.upstreamBrokeContract(operationId ?? `${req.method} ${req.path}`, forwarded.status, rules.notKept ? [...rules.kept, `and ${rules.notKept} more`] : rules.kept));
    }
    for (const [name, value] of clientResponseHeaders(forwarded.headers)) res.setHeader(name, value);
    if (total) res.setHeader(VIOLATIONS_HEADER, String(total));
    res.setHeader('content-length', forwarded.body.length);
    res.status(forwarded.status).end(forwarded.body);
  };
}

function failed(options: ProxyAnswerOptions, req: Request, res: Response, url: string, forwarded: Extract<Forwarded, { kind: 'failed' }>): void {
  res.locals[UPSTREAM] = { url, status: null, durationMs: forwarded.durationMs, error: forwarded.reason };
  res.locals['verdict'] = 'upstream-error' satisfies Verdict;
  const error = errors.upstreamFailed(url, forwarded.reason);
  options.log(printable(`UPSTREAM ERROR ${req.method} ${req.originalUrl}: ${error.errorDescription}`));
  const requestSide = totalOf(requestSideOf(res));
  if (requestSide) res.setHeader(VIOLATIONS_HEADER, String(requestSide));
  sendError(res, error);
}

/**
 * The checker's violations, after the nesting check a client's body gets (D28): the checker's
 * validator and its previews recurse, and an answer nested 100,000 levels deep overflowed the
 * stack (a 500). Deeper than the limit, the answer is a violation of its own and is not parsed.
 */
function judgedAnswer(checker: ResponseChecker, operationId: string | null, answer: UpstreamAnswer, text: string | { problem: string }): Violation[] {
  // The bytes as sent when they are the text (no content encoding): no second copy of a large answer.
  const bytes = (): Buffer => ((answer.contentEncoding ?? 'identity').trim().toLowerCase() === 'identity' ? answer.body : Buffer.from(text as string));
  if (operationId !== null && typeof text === 'string' && nestsDeeperThan(bytes(), MAX_JSON_DEPTH)) {
    return [{ side: 'response', rule: `the answer to ${operationId} is nested more than ${MAX_JSON_DEPTH} levels deep` }];
  }
  return responseViolations(checker, operationId, answer, text);
}

const header = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? value.join(', ') : (value ?? null));

/** The body for the journal and coverage: its JSON when it is JSON, else its text. */
function readBody(text: string): unknown {
  if (text.length === 0) return null;
  const capped = capText(text);
  if (capped !== undefined) return capped;
  // The journal and the console stream serialise it again: no deeper than a client's body may be (D28).
  if (nestsDeeperThan(Buffer.from(text), MAX_JSON_DEPTH)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
