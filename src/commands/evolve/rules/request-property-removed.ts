// request-property-removed (error): a request body field --from defines and NEXT does not (with
// additionalProperties: false, a request that sends it is refused).
import { fieldRule } from './rule.js';

export const requestPropertyRemoved = fieldRule('request-property-removed', 'error', ({ side, before, after }) => (side === 'request' && before && !after ? 'property removed' : undefined));
