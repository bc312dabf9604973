// response-property-removed (error): an answer field --from defines and NEXT does not: a consumer
// that reads it will find it gone.
import { fieldRule } from './rule.js';

export const responsePropertyRemoved = fieldRule('response-property-removed', 'error', ({ side, before, after }) => (side !== 'request' && before && !after ? 'property removed' : undefined));
