// One proxied exchange's violations as they are kept (src/core/violations.ts, keepFirst): the first
// MAX_VIOLATIONS_PER_SIDE of the request's and of the answer's, and a count of the rest, in
// res.locals for the journal entry (src/http/record-requests.ts), the log line and the drift report.
// The x-contract-violations header is the true count, kept or not.
import type { Response } from 'express';
import type { Violation } from '../core/journal.js';
import { keepFirst } from '../core/violations.js';
import { VIOLATIONS, VIOLATIONS_NOT_KEPT } from '../http/record-requests.js';
import { VIOLATIONS_HEADER } from './headers.js';

export interface KeptViolations {
  kept: Violation[];
  notKept: number;
}

export const totalOf = (side: KeptViolations): number => side.kept.length + side.notKept;

/** The request's violations, kept; the header says how many there were (also on an answer a scenario forces). */
export function keepRequestSide(res: Response, all: readonly Violation[]): void {
  const side = keepFirst(all);
  res.locals[VIOLATIONS] = side.kept;
  res.locals[VIOLATIONS_NOT_KEPT] = side.notKept;
  if (all.length) res.setHeader(VIOLATIONS_HEADER, String(all.length));
}

export function requestSideOf(res: Response): KeptViolations {
  return { kept: (res.locals[VIOLATIONS] as Violation[] | undefined) ?? [], notKept: (res.locals[VIOLATIONS_NOT_KEPT] as number | undefined) ?? 0 };
}

/** Both sides kept, the answer's after the request's; the whole exchange's kept list and count. */
export function keepBothSides(res: Response, request: KeptViolations, response: readonly Violation[]): KeptViolations {
  const answer = keepFirst(response);
  const both = { kept: [...request.kept, ...answer.kept], notKept: request.notKept + answer.notKept };
  res.locals[VIOLATIONS] = both.kept;
  res.locals[VIOLATIONS_NOT_KEPT] = both.notKept;
  return both;
}

/** "request: … (detail); response: …; and 12 more violations not shown" */
export function describeKept({ kept, notKept }: KeptViolations): string {
  const shown = kept.map((violation) => `${violation.side}: ${violation.rule}${violation.detail === undefined ? '' : ` (${violation.detail})`}`).join('; ');
  return notKept ? `${shown}; and ${notKept} more violations not shown` : shown;
}
