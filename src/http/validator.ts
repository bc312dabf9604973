// express-openapi-validator, set up so that the mock can never tell a client something the
// contract forbids: requests and responses are validated, formats in full, no coercion, no
// stripping of unknown fields (they are errors, D6/D7).
// patches/express-openapi-validator+*.patch (applied by `npm ci`, postinstall) makes its route
// lookup compile each path's regular expression once instead of on every request.
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import type { OpenApiDocument } from './operation-table.js';

type ValidatorSpec = Parameters<typeof OpenApiValidator.middleware>[0]['apiSpec'];

export function contractValidator(document: OpenApiDocument): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(document) as unknown as ValidatorSpec,
    // openapi.yaml is linted by Redocly and Spectral in CI; checking it again at every start
    // would cost a few hundred milliseconds of cold start.
    validateApiSpec: false,
    // allErrors: a client learns about every bad field at once, not one per round trip.
    // Unknown query parameters are ignored: the API defines none, and a 400 for them would be
    // outside deleteLink's documented statuses (openapi.yaml says so).
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, allErrors: true },
    validateResponses: { removeAdditional: false, coerceTypes: false, allErrors: true },
    // The API key itself is checked earlier, against the accounts (src/http/authenticate.ts).
    validateSecurity: false,
    validateFormats: true,
    ajvFormats: { mode: 'full' },
    ignoreUndocumented: false,
    // The contract has no multipart bodies: no multer middleware on every request.
    fileUploader: false,
  }) as unknown as RequestHandler[];
}
