// request-property-became-required (error): a request body field NEXT requires and --from did not
// (or did not define at all).
import { fieldRule } from './rule.js';

export const requestPropertyBecameRequired = fieldRule('request-property-became-required', 'error', ({ side, before, after }) =>
  side === 'request' && after?.required && !before?.required ? (before ? 'became required' : 'new required property') : undefined,
);
