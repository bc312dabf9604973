// response-status-added (info): a status NEXT documents for an operation and --from does not.
import { inBoth, type Rule } from './rule.js';

export const responseStatusAdded: Rule = {
  id: 'response-status-added',
  level: 'info',
  check: (from, next) =>
    inBoth(from, next).flatMap(([was, now]) =>
      [...now.responses.keys()]
        .filter((status) => !was.responses.has(status))
        .map((status) => ({ rule: 'response-status-added', level: 'info' as const, pointer: `${now.pointer}/responses/${status}`, change: `response status ${status} added`, operationId: now.operationId, hits: { reasonHas: `status ${status} ` } })),
    ),
};
