// response-status-added (info): a status NEXT documents for an operation and --from does not.
import { operationRule } from './rule.js';

export const responseStatusAdded = operationRule('response-status-added', 'info', (was, now) =>
  [...now.responses.keys()]
    .filter((status) => !was.responses.has(status))
    .map((status) => ({ pointer: `${now.pointer}/responses/${status}`, change: `response status ${status} added`, hits: { reasonHas: `status ${status} ` } })),
);
