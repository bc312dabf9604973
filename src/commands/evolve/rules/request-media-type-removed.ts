// request-media-type-removed (error): a content type --from took for a request body and NEXT does
// not: a request sent as it is refused.
import { inBoth, type Rule } from './rule.js';
import type { OperationShape } from '../schema-fields.js';

export function requestMediaTypeRule(typesOf: (operation: OperationShape, side: 'from' | 'next') => string[]): Rule {
  return {
    id: 'request-media-type-removed',
    level: 'error',
    check: (from, next) =>
      inBoth(from, next).flatMap(([was, now]) => {
        const after = typesOf(now, 'next');
        return typesOf(was, 'from')
          .filter((type) => !after.includes(type))
          .map((type) => ({ rule: 'request-media-type-removed', level: 'error' as const, pointer: `${now.pointer}/requestBody/content`, change: `request content type ${type} removed`, operationId: now.operationId, hits: { reasonHas: `content type ${type} is no longer accepted` } }));
      }),
  };
}
