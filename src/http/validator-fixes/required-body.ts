// A step in front of the contract's validator (src/http/validator.ts): a request of an operation
// whose request body the contract marks `required: true`, sent with a JSON content type and no body
// (no Content-Length and no Transfer-Encoding: req.body is undefined; or a body of no bytes, which
// body-parser reads as {}), is refused as the validator refuses a POST /links without one ("the
// request has no body"). An empty body is not the object {}: `curl -X PUT -d ''` said "must have at
// least one field", and POST listed three missing fields, for a body the client never sent.
//
// Why not the validator: express-openapi-validator 5.6.2 requires the body when the body's
// *schema* has a `required` list (`Validator._schemaBody` reads `body.required` of the schema, not
// of the requestBody object). createLink's schema lists required fields, so its missing body was
// refused; updateLink's lists none (both fields optional, at least one: D6), so its missing body
// passed validation and reached the handler as undefined: a 500 (found by a black-box sweep, stop 54).
// The contract's `required: true` is read here, per operation, once.
import typeis from 'type-is';
import type { OpenApiDocument } from '../../core/contract-types.js';
import { parsedBodyBytes } from '../json-body.js';
import { requestBodies, type EarlyRefusal } from './request-bodies.js';

const JSON_TYPES = ['application/json'];

/** The validator's own finding for a missing required body (test/http/required-body.test.ts compares them). */
const MISSING_BODY = { path: '/body', message: "must have required property 'body'", errorCode: 'required.openapi.validation' };

export function missingBodyRefusal(document: OpenApiDocument): EarlyRefusal {
  const required = new Set([...requestBodies(document)].filter(([, body]) => body.required === true).map(([operationId]) => operationId));
  return (req, res) => {
    // Only a JSON request: without a content type, or with another one, the validator's own refusal (the media type) says more.
    if ((req.body !== undefined && parsedBodyBytes(res) !== 0) || !required.has(res.locals['operationId'] as string) || !typeis.is(req.headers['content-type'] ?? '', JSON_TYPES)) return undefined;
    return { status: 400, path: req.path, message: `request ${MISSING_BODY.message}`, errors: [{ ...MISSING_BODY }] };
  };
}
