// response-property-enum-value-added (warn): an answer field's enum gained a value the consumer
// has never seen.
import { fieldRule } from './rule.js';

export const responsePropertyEnumValueAdded = fieldRule('response-property-enum-value-added', 'warn', ({ side, before, after }) => {
  const was = before?.schema['enum'];
  const now = after?.schema['enum'];
  if (side === 'request' || !Array.isArray(was) || !Array.isArray(now)) return undefined;
  const added = now.filter((value) => !was.some((old) => JSON.stringify(old) === JSON.stringify(value)));
  return added.length ? `enum values added: ${added.map((value) => JSON.stringify(value)).join(', ')}` : undefined;
});
