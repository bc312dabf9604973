// A check of the step in front of the contract's validator (src/http/validator.ts): a request body holding an
// array over its maxItems (40,000 tags where 50 are allowed) is refused by the array's length
// before Ajv walks it (src/core/array-bounds.ts says why). The refusal is shaped as the
// validator's own, so it reads the same as Ajv's maxItems error wherever it goes: the 400 of mock
// mode (src/http/errors.ts), the request-side violation of the proxy (src/proxy/request-check.ts).
// For a body without such an array this costs a property lookup per bounded array.
import { arrayBoundsOf, tooManyItems, type ArrayBoundsCheck } from '../../core/array-bounds.js';
import type { OpenApiDocument } from '../../core/contract-types.js';
import { requestBodies, type EarlyRefusal } from './request-bodies.js';

/** The refusal of a request body holding an array over its maxItems, or undefined: the validator's own error's shape. */
export function oversizeArrayRefusal(document: OpenApiDocument): EarlyRefusal {
  const checks = requestBodyChecks(document);
  return (req, res) => {
    const check = checks.get(res.locals['operationId'] as string);
    const found = check?.(req.body);
    if (!found) return undefined;
    const path = `/body/${found.path.join('/')}`;
    const message = tooManyItems(found.maxItems);
    return { status: 400, path: req.path, message: `request${path.replace(/\//g, '.')} ${message}`, errors: [{ path, message, errorCode: 'maxItems.openapi.validation' }] };
  };
}

/** Each operation's request body check, by operationId (only those whose body bounds an array). */
function requestBodyChecks(document: OpenApiDocument): Map<string, ArrayBoundsCheck> {
  const checks = new Map<string, ArrayBoundsCheck>();
  for (const [operationId, body] of requestBodies(document)) {
    const check = arrayBoundsOf(document, body.content?.['application/json']?.schema);
    if (check) checks.set(operationId, check);
  }
  return checks;
}
