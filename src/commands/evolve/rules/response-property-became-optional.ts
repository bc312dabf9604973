// response-property-became-optional (error): an answer field --from required and NEXT does not:
// the provider may leave it out.
import { fieldRule } from './rule.js';

export const responsePropertyBecameOptional = fieldRule('response-property-became-optional', 'error', ({ side, before, after }) => (side !== 'request' && before?.required && after && !after.required ? 'no longer required' : undefined));
