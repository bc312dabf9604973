// property-type-changed (error): a field's type or format differs between --from and NEXT, on the
// request (values sent may be refused) or an answer (the consumer receives another type).
import { fieldRule } from './rule.js';

export const propertyTypeChanged = fieldRule('property-type-changed', 'error', ({ before, after }) => {
  if (!before || !after) return undefined;
  const shown = (schema: Record<string, unknown>): string => `${String(schema['type'] ?? 'any')}${schema['format'] === undefined ? '' : `/${String(schema['format'])}`}`;
  return shown(before.schema) === shown(after.schema) ? undefined : `type ${shown(before.schema)} → ${shown(after.schema)}`;
});
