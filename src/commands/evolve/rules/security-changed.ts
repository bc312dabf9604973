// security-changed (error): an operation's security asks for a header --from's did not (a new
// scheme, another header name, security where there was none).
import { inBoth, type Rule } from './rule.js';
import type { OperationShape } from '../schema-fields.js';

export function securityRule(headersOf: (operation: OperationShape, side: 'from' | 'next') => string[]): Rule {
  return {
    id: 'security-changed',
    level: 'error',
    check: (from, next) =>
      inBoth(from, next).flatMap(([was, now]) => {
        const before = headersOf(was, 'from');
        const added = headersOf(now, 'next').filter((header) => !before.includes(header));
        return added.map((header) => ({ rule: 'security-changed', level: 'error' as const, pointer: `${now.pointer}/security`, change: `security: the ${header} header is now required`, operationId: now.operationId, hits: { reasonHas: `requires the ${header} header` } }));
      }),
  };
}
