// request-media-type-removed (error): a content type --from took for a request body and NEXT does
// not: a request sent as it is refused.
import { operationRule, type Rule } from './rule.js';
import type { OperationShape } from '../schema-fields.js';

export const requestMediaTypeRule = (typesOf: (operation: OperationShape, side: 'from' | 'next') => string[]): Rule =>
  operationRule('request-media-type-removed', 'error', (was, now) => {
    const after = typesOf(now, 'next');
    return typesOf(was, 'from')
      .filter((type) => !after.includes(type))
      .map((type) => ({ pointer: `${now.pointer}/requestBody/content`, change: `request content type ${type} removed`, hits: { reasonHas: `content type ${type} is no longer accepted` } }));
  });
