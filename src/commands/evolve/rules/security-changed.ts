// security-changed (error): an operation's security asks for a header --from's did not (a new
// scheme, another header name, security where there was none).
import { operationRule, type Rule } from './rule.js';
import type { OperationShape } from '../schema-fields.js';

export const securityRule = (headersOf: (operation: OperationShape, side: 'from' | 'next') => string[]): Rule =>
  operationRule('security-changed', 'error', (was, now) => {
    const before = headersOf(was, 'from');
    return headersOf(now, 'next')
      .filter((header) => !before.includes(header))
      .map((header) => ({ pointer: `${now.pointer}/security`, change: `security: the ${header} header is now required`, hits: { reasonHas: `requires the ${header} header` } }));
  });
