// What the proxy makes of an upstream answer: the ways it breaks the operation's contract and its
// body as the journal keeps it. One function for both places it runs: inline, on the event loop,
// for a small answer, and in the judging thread for a large one (answer-judge.ts), so that the two
// cannot give different verdicts.
import { capText, type Violation } from '../core/journal.js';
import type { ResponseChecker } from '../contract/response-checker.js';
import { jsonOverLimits, MAX_ANSWER_VALUES, MAX_JSON_DEPTH, nestsDeeperThan } from '../http/json-depth.js';
import { responseViolations, type UpstreamAnswer } from './response-check.js';

export interface AnswerVerdict {
  /** The answer's side only: the exchange adds acceptedRefusedRequest (it needs the request's side). */
  violations: Violation[];
  /** For the journal and coverage: the JSON when it is JSON, else the text, capped (capText). */
  body: unknown;
}

/** `text`: the answer's body decoded (decodedText), or why it cannot be. */
export function answerVerdict(checker: ResponseChecker, operationId: string | null, answer: UpstreamAnswer, text: string | { problem: string }): AnswerVerdict {
  return { violations: judgedAnswer(checker, operationId, answer, text), body: typeof text === 'string' ? readBody(text) : null };
}

/**
 * The checker's violations, after the nesting check a client's body gets (D28): the checker's
 * validator and its previews recurse, and an answer nested 100,000 levels deep overflowed the
 * stack (a 500). Deeper than the limit, or holding more values than MAX_ANSWER_VALUES, the answer
 * is a violation of its own and is not parsed.
 */
function judgedAnswer(checker: ResponseChecker, operationId: string | null, answer: UpstreamAnswer, text: string | { problem: string }): Violation[] {
  // The bytes as sent when they are the text (no content encoding): no second copy of a large answer.
  const bytes = (): Buffer => ((answer.contentEncoding ?? 'identity').trim().toLowerCase() === 'identity' ? answer.body : Buffer.from(text as string));
  const over = operationId !== null && typeof text === 'string' ? jsonOverLimits(bytes(), MAX_JSON_DEPTH, Number.POSITIVE_INFINITY, MAX_ANSWER_VALUES) : undefined;
  if (over === 'depth') return [{ side: 'response', rule: `the answer to ${operationId} is nested more than ${MAX_JSON_DEPTH} levels deep` }];
  // Bounds the memory a parse takes (MAX_ANSWER_VALUES says why); no documented answer comes near it.
  if (over === 'values') return [{ side: 'response', rule: `the answer to ${operationId} holds more than ${MAX_ANSWER_VALUES} values, more than any answer the contract documents; judged no further` }];
  return responseViolations(checker, operationId, answer, text);
}

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
