// The last step of a proxied request: send it on, judge the upstream's answer against openapi.yaml,
// and give the client that answer unchanged with the count of violations in a header; or, with
// --proxy-strict and an off-contract answer, a 502 Error object naming the violations; or, when the
// upstream gives no answer, a 502 Error object with the reason. What happened is left in res.locals
// for the journal (src/http/record-requests.ts).
import type { Request, RequestHandler, Response } from 'express';
import { errors } from '../core/errors.js';
import type { UpstreamOutcome, Verdict } from '../core/journal.js';
import { printable } from '../core/printable.js';
import { keepFirst } from '../core/violations.js';
import { sendError } from '../http/errors.js';
import { UPSTREAM } from '../http/record-requests.js';
import { takeWithin } from './client-deadline.js';
import { elapsedMs, type Forwarded, type Upstream } from './forward.js';
import { clientResponseHeaders, upstreamRequestHeaders, VIOLATIONS_HEADER } from './headers.js';
import { describeKept, keepBothSides, requestSideOf, totalOf } from './kept-violations.js';
import { RAW_BODY } from './raw-body.js';
import type { AnswerJudge } from './answer-judge.js';
import { acceptedRefusedRequest } from './response-check.js';

export interface ProxyAnswerOptions {
  upstream: Upstream;
  /** Judges the answer against openapi.yaml: a small one inline, a large one in a thread. */
  judge: AnswerJudge;
  /** --proxy-strict: an off-contract answer becomes a 502. */
  strict: boolean;
  /** Where a line about each off-contract answer or failed upstream goes (always, even with --quiet). */
  log: (line: string) => void;
  /** The contract's operations, named by the 404 for a request target that is no path. */
  operations: readonly string[];
}

export function proxyAnswer(options: ProxyAnswerOptions): RequestHandler {
  const host = new URL(options.upstream.origin).host;
  return async (req, res) => {
    // `GET *` and the like (Node accepts `*` as a target): nothing of the API, and nothing to join to the upstream's URL.
    if (!req.originalUrl.startsWith('/')) throw errors.pathNotFound(req.method, req.originalUrl, options.operations);
    const raw = res.locals[RAW_BODY] as Buffer | undefined;
    const cancelled = new AbortController();
    // A client that gives up takes its upstream request with it.
    res.on('close', () => void (res.writableFinished || cancelled.abort()));
    const started = performance.now();
    // A free slot is no wait, however long the turn took to come back to this request on a busy
    // machine: a timeout then blamed --proxy-concurrency for a millisecond it never queued.
    const queued = options.upstream.slots.full;
    const slot = await options.upstream.slots.acquire(options.upstream.timeoutMs, cancelled.signal);
    if (res.destroyed) return typeof slot === 'function' ? slot() : undefined;
    const url = options.upstream.urlOf(req.path);
    if (typeof slot !== 'function') return failed(options, req, res, url, { kind: 'failed', reason: slot.refused, durationMs: elapsedMs(started) });
    // Held until the client has the answer (or is gone): until then the answer is in memory.
    res.on('close', slot);
    const waitedMs = queued ? performance.now() - started : 0;
    const forwarded = await options.upstream.send({ method: req.method, target: req.originalUrl, headers: upstreamRequestHeaders(req.headers, host, raw), body: raw }, cancelled.signal, started, waitedMs);
    if (res.destroyed) return forwarded.kind === 'answer' ? forwarded.release() : undefined;
    if (forwarded.kind === 'failed') return failed(options, req, res, url, forwarded);
    const requestSide = requestSideOf(res);
    const answer = { status: forwarded.status, contentType: header(forwarded.headers['content-type']), contentEncoding: header(forwarded.headers['content-encoding']), body: forwarded.body };
    const operationId = (res.locals['operationId'] as string | null | undefined) ?? null;
    // No hop for a small answer: the thread is only for a large one.
    const verdict = options.judge.inline(operationId, answer) ?? (await options.judge.offThread(operationId, answer));
    // The body's memory is reused once the client has it (or is gone); the judging is over by now.
    if (res.destroyed) return forwarded.release();
    res.on('close', forwarded.release);
    const responseSide = [...verdict.violations, ...acceptedRefusedRequest(operationId, forwarded.status, requestSide.kept)];
    const violations = keepBothSides(res, requestSide, responseSide);
    const total = totalOf(violations);
    const outcome: UpstreamOutcome = { url, status: forwarded.status, durationMs: forwarded.durationMs };
    res.locals[UPSTREAM] = outcome;
    res.locals['responseBody'] = verdict.body;
    res.locals['verdict'] = (responseSide.length ? 'contract-violation' : totalOf(requestSide) ? 'invalid-request' : 'ok') satisfies Verdict;
    if (total) options.log(printable(`CONTRACT VIOLATION ${req.method} ${req.originalUrl} → upstream ${forwarded.status}: ${describeKept(violations)}`));
    // The client has as long to take the answer as the upstream had to give it; then its slot is freed.
    const takeMs = options.upstream.clientTimeoutMs;
    takeWithin(res, takeMs, () => options.log(printable(`CLIENT TOO SLOW ${req.method} ${req.originalUrl}: its answer was not taken within ${takeMs} ms (--proxy-timeout); the connection is reset`)));
    if (options.strict && responseSide.length) {
      // The client is given the 502; the journal and the drift report keep what the upstream said.
      outcome.body = verdict.body;
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

const header = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? value.join(', ') : (value ?? null));
