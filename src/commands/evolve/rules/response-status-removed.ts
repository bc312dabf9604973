// response-status-removed (error): a status --from documents for an operation and NEXT does not.
import { inBoth, type Rule } from './rule.js';

export const responseStatusRemoved: Rule = {
  id: 'response-status-removed',
  level: 'error',
  check: (from, next) =>
    inBoth(from, next).flatMap(([was, now]) =>
      [...was.responses.keys()]
        .filter((status) => !now.responses.has(status))
        .map((status) => ({ rule: 'response-status-removed', level: 'error' as const, pointer: `${was.pointer}/responses/${status}`, change: `response status ${status} removed`, operationId: now.operationId, hits: { reasonHas: `status ${status} is no longer documented` } })),
    ),
};
