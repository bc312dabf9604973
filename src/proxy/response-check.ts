// The upstream's side of a proxied exchange: does its answer keep openapi.yaml? Judged by the
// contract suite's own checker (src/contract/response-checker.ts, an Ajv compiled from
// openapi.yaml) because it reads an answer as it came over the wire: the status, the content type,
// a body that must be empty, one that is not JSON at all. The mock's response middleware sees only
// bodies the mock itself hands to res.json.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Violation } from '../core/journal.js';
import type { ResponseChecker } from '../contract/response-checker.js';
import { MAX_UPSTREAM_BODY } from './forward.js';

export interface UpstreamAnswer {
  status: number;
  contentType: string | null;
  contentEncoding: string | null;
  body: Buffer;
}

/**
 * The answer's body as text, its content encoding undone (the client still gets the encoded bytes).
 * `maxOutput` below MAX_UPSTREAM_BODY: a body that decodes to more is `tooLarge`, for a caller
 * that judges such an answer elsewhere (answer-judge.ts), not a problem of the answer.
 */
export function decodedText(answer: UpstreamAnswer, maxOutput = MAX_UPSTREAM_BODY): string | { problem: string; tooLarge?: true } {
  const encoding = answer.contentEncoding?.trim().toLowerCase() ?? 'identity';
  const limit = { maxOutputLength: maxOutput };
  try {
    if (encoding === 'identity' || answer.body.length === 0) return answer.body.toString('utf8');
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(answer.body, limit).toString('utf8');
    if (encoding === 'deflate') return inflateSync(answer.body, limit).toString('utf8');
    if (encoding === 'br') return brotliDecompressSync(answer.body, limit).toString('utf8');
  } catch (error) {
    const tooLarge = maxOutput < MAX_UPSTREAM_BODY && (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
    return { problem: `its ${encoding} body cannot be decoded: ${(error as Error).message}`, ...(tooLarge ? { tooLarge } : {}) };
  }
  return { problem: `its content encoding '${encoding}' is not one the proxy can read (gzip, deflate, br)` };
}

/** Every way the answer breaks the operation's contract ([] when it keeps it); null operation: none to judge by. */
export function responseViolations(checker: ResponseChecker, operationId: string | null, answer: UpstreamAnswer, text: string | { problem: string }): Violation[] {
  if (operationId === null) return [];
  if (typeof text !== 'string') return [{ side: 'response', rule: `the answer to ${operationId} is unreadable: ${text.problem}` }];
  return checker.responseProblems(operationId, answer.status, answer.contentType, text).map((problem) => ({
    side: 'response',
    rule: problem.rule,
    ...(problem.detail === undefined ? {} : { detail: problem.detail }),
  }));
}

/**
 * A request the contract refuses (a 400 for every operation that takes input) answered with a
 * success: the service accepts what the contract forbids, such as a field it silently ignores.
 * That is drift on the service's side, whatever its answer's shape.
 */
export function acceptedRefusedRequest(operationId: string | null, status: number, requestSide: readonly Violation[]): Violation[] {
  if (operationId === null || requestSide.length === 0 || status < 200 || status > 299) return [];
  return [{ side: 'response', rule: `${operationId} answered ${status} to a request the contract refuses (it must be a 400)`, detail: requestSide.map((violation) => violation.rule).join('; ') }];
}
