// operation-removed (error): an operation of --from that NEXT does not have (its path or method gone).
import type { Rule } from './rule.js';

export const operationRemoved: Rule = {
  id: 'operation-removed',
  level: 'error',
  check: (from, next) =>
    [...from.entries()]
      .filter(([key]) => !next.has(key))
      .map(([, was]) => ({ rule: 'operation-removed', level: 'error', pointer: was.pointer, change: `operation removed: ${was.method} ${was.path} (${was.operationId})`, operationId: was.operationId, hits: { reasonHas: 'operation removed' } })),
};
