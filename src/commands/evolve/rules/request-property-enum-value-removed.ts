// request-property-enum-value-removed (error): a request field's enum lost a value (or gained an enum).
import { fieldRule } from './rule.js';

export const requestPropertyEnumValueRemoved = fieldRule('request-property-enum-value-removed', 'error', ({ side, before, after }) => {
  const now = after?.schema['enum'];
  if (side !== 'request' || !before || !Array.isArray(now)) return undefined;
  const was = before.schema['enum'];
  const lost = Array.isArray(was) ? was.filter((value) => !now.some((kept) => JSON.stringify(kept) === JSON.stringify(value))) : ['(any value)'];
  return lost.length ? `enum values removed: ${lost.map((value) => JSON.stringify(value)).join(', ')}` : undefined;
});
