// request-property-max-length-decreased (error): a request string's maxLength lowered (or set where there was none).
import { fieldRule } from './rule.js';

export const requestPropertyMaxLengthDecreased = fieldRule('request-property-max-length-decreased', 'error', ({ side, before, after }) => {
  const was = before?.schema['maxLength'];
  const now = after?.schema['maxLength'];
  if (side !== 'request' || !before || typeof now !== 'number') return undefined;
  return typeof was !== 'number' || now < was ? `maxLength ${typeof was === 'number' ? was : 'none'} → ${now}` : undefined;
});
