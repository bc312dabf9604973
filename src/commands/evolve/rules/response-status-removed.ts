// response-status-removed (error): a status --from documents for an operation and NEXT does not.
import { operationRule } from './rule.js';

export const responseStatusRemoved = operationRule('response-status-removed', 'error', (was, now) =>
  [...was.responses.keys()]
    .filter((status) => !now.responses.has(status))
    .map((status) => ({ pointer: `${was.pointer}/responses/${status}`, change: `response status ${status} removed`, hits: { reasonHas: `status ${status} is no longer documented` } })),
);
