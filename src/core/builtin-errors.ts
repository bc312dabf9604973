// The built-in forced errors: the `error:` shorthand of scenario files and the bodies that
// Prism's `Prefer: code=<status>` gets. Each is a status with an Error body that fits it.
import type { ForcedResponse } from './scenarios.js';

export type BuiltInError = 'unauthorized' | 'invalid-request' | 'not-found' | 'link-limit-reached';

export const BUILT_IN_ERRORS: Readonly<Record<BuiltInError, ForcedResponse>> = {
  unauthorized: { status: 401, body: { errorDescription: 'The x-api-key header names no account (forced by a mock scenario)' } },
  'invalid-request': { status: 400, body: { errorDescription: 'The request is invalid (forced by a mock scenario)' } },
  'not-found': { status: 404, body: { errorDescription: 'The resource was not found (forced by a mock scenario)' } },
  'link-limit-reached': {
    status: 400,
    body: { errorDescription: 'The account has reached its link limit (forced by a mock scenario)', code: 'LINK_LIMIT_REACHED' },
  },
};

const BY_STATUS: Readonly<Record<number, BuiltInError>> = { 400: 'invalid-request', 401: 'unauthorized', 404: 'not-found' };

/** The built-in error that fits an error status, if there is one. */
export function builtInErrorFor(status: number): ForcedResponse | undefined {
  const kind = BY_STATUS[status];
  return kind && BUILT_IN_ERRORS[kind];
}
