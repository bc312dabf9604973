// response-property-added (info): an answer field NEXT defines and --from did not; required or
// not, it is additive by rule (a consumer that refuses unknown fields is hit all the same).
import { fieldRule } from './rule.js';

export const responsePropertyAdded = fieldRule('response-property-added', 'info', ({ side, before, after }) => (side !== 'request' && after && !before ? (after.required ? 'new required property' : 'new optional property') : undefined));
