// request-property-pattern-changed (error): a request string's pattern changed or added: values
// --from allowed may be refused.
import { fieldRule } from './rule.js';

export const requestPropertyPatternChanged = fieldRule('request-property-pattern-changed', 'error', ({ side, before, after }) => {
  const was = before?.schema['pattern'];
  const now = after?.schema['pattern'];
  if (side !== 'request' || !before || typeof now !== 'string' || was === now) return undefined;
  return `pattern ${typeof was === 'string' ? `'${was}'` : 'none'} → '${now}'`;
});
