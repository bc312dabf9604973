// path-parameter-changed (error): a path parameter's schema differs: ids --from allowed may be refused.
import { operationRule, type Rule } from './rule.js';
import type { OperationShape } from '../schema-fields.js';

export const pathParameterRule = (schemasOf: (operation: OperationShape, side: 'from' | 'next') => Map<string, string>): Rule =>
  operationRule('path-parameter-changed', 'error', (was, now) => {
    const before = schemasOf(was, 'from');
    return [...schemasOf(now, 'next')]
      .filter(([name, schema]) => before.get(name) !== schema)
      .map(([name]) => ({ pointer: `${now.pointer}/parameters`, change: `path parameter ${name}: schema changed`, hits: { reasonHas: `path parameter ${name} ` } }));
  });
