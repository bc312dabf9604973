// path-parameter-changed (error): a path parameter's schema differs: ids --from allowed may be refused.
import { inBoth, type Rule } from './rule.js';
import type { OperationShape } from '../schema-fields.js';

export function pathParameterRule(schemasOf: (operation: OperationShape, side: 'from' | 'next') => Map<string, string>): Rule {
  return {
    id: 'path-parameter-changed',
    level: 'error',
    check: (from, next) =>
      inBoth(from, next).flatMap(([was, now]) => {
        const before = schemasOf(was, 'from');
        return [...schemasOf(now, 'next')]
          .filter(([name, schema]) => before.get(name) !== schema)
          .map(([name]) => ({ rule: 'path-parameter-changed', level: 'error' as const, pointer: `${now.pointer}/parameters`, change: `path parameter ${name}: schema changed`, operationId: now.operationId, hits: { reasonHas: `path parameter ${name} ` } }));
      }),
  };
}
