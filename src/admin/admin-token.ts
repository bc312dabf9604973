// --admin-token: the admin API's only guard. Compared in constant time (over SHA-256 digests, so
// the lengths match too) so the token cannot be guessed byte by byte from response times.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError, errors } from '../core/errors.js';

export const ADMIN_TOKEN_HEADER = 'x-admin-token';

// Missing and wrong are told apart: a person who sent a token needs to hear that it is the wrong
// one, not that one is needed.
const wrongAdminToken = (): ApiError =>
  new ApiError(401, `the ${ADMIN_TOKEN_HEADER} header does not match the token the server was started with (--admin-token)`);

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export function tokenMatches(expected: string, given: string | undefined): boolean {
  return given !== undefined && timingSafeEqual(digest(expected), digest(given));
}

/** No token configured: open (the CLI allows that only on loopback). */
export function requireAdminToken(token: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (token === undefined) return next();
    // An empty header is no token at all (what a client with an unset variable sends).
    const given = req.get(ADMIN_TOKEN_HEADER) || undefined;
    if (given === undefined) throw errors.adminTokenRequired();
    if (!tokenMatches(token, given)) throw wrongAdminToken();
    next();
  };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host.replace(/^\[|\]$/g, ''));
}
