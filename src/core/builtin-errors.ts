// The built-in forced errors: the `error:` shorthand of scenario files and the bodies that
// Prism's `Prefer: code=<status>` gets. Each is a status with an Error body that fits it, and says
// what forced it, so nobody mistakes it for a real refusal.
import type { ForcedResponse } from './scenarios.js';

export type BuiltInError = 'unauthorized' | 'invalid-request' | 'not-found' | 'link-limit-reached';

const SCENARIO = 'a mock scenario';

function forcedErrors(by: string): Readonly<Record<BuiltInError, ForcedResponse>> {
  return {
    unauthorized: { status: 401, body: { errorDescription: `The request is refused as unauthenticated, whatever its x-api-key header names (forced by ${by})` } },
    'invalid-request': { status: 400, body: { errorDescription: `The request is invalid (forced by ${by})` } },
    'not-found': { status: 404, body: { errorDescription: `The resource was not found (forced by ${by})` } },
    'link-limit-reached': {
      status: 400,
      body: { errorDescription: `The account has reached its link limit (forced by ${by})`, code: 'LINK_LIMIT_REACHED' },
    },
  };
}

/** As scenario files get them. */
export const BUILT_IN_ERRORS = forcedErrors(SCENARIO);
const PREFER_ERRORS = forcedErrors('the Prefer header');

const BY_STATUS: Readonly<Record<number, BuiltInError>> = { 400: 'invalid-request', 401: 'unauthorized', 404: 'not-found' };

/** The built-in error that fits an error status asked for with `Prefer: code=<status>`, if there is one. */
export function preferErrorFor(status: number): ForcedResponse | undefined {
  const kind = BY_STATUS[status];
  return kind && PREFER_ERRORS[kind];
}
