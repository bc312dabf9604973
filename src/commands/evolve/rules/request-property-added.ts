// request-property-added (info): an optional request body field NEXT defines and --from did not.
import { fieldRule } from './rule.js';

export const requestPropertyAdded = fieldRule('request-property-added', 'info', ({ side, before, after }) => (side === 'request' && after && !before && !after.required ? 'optional property added' : undefined));
