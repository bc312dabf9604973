// operation-added (info): an operation NEXT has and --from does not.
import type { Rule } from './rule.js';

export const operationAdded: Rule = {
  id: 'operation-added',
  level: 'info',
  check: (from, next) =>
    [...next.entries()]
      .filter(([key]) => !from.has(key))
      .map(([, now]) => ({ rule: 'operation-added', level: 'info', pointer: now.pointer, change: `operation added: ${now.method} ${now.path} (${now.operationId})`, operationId: now.operationId, hits: null })),
};
