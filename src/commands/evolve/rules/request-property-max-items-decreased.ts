// request-property-max-items-decreased (error): a request array's maxItems lowered (or set where there was none).
import { fieldRule } from './rule.js';

export const requestPropertyMaxItemsDecreased = fieldRule('request-property-max-items-decreased', 'error', ({ side, before, after }) => {
  const was = before?.schema['maxItems'];
  const now = after?.schema['maxItems'];
  if (side !== 'request' || !before || typeof now !== 'number') return undefined;
  return typeof was !== 'number' || now < was ? `maxItems ${typeof was === 'number' ? was : 'none'} → ${now}` : undefined;
});
