// No page may frame the console or any admin answer (issue 37 A6). Inside a frame, clicks on the
// console are the mock's own origin: a page that framed /__admin/ under a transparent layer could
// make the visitor switch scenarios or restore a snapshot (clickjacking), and the browser guard
// (browser-guard.ts) would see a same-origin request. Both headers: `frame-ancestors` is the
// standard, X-Frame-Options what older browsers read.
import type { RequestHandler, Response } from 'express';

export const FRAME_ANCESTORS = "frame-ancestors 'none'";
const CSP = 'content-security-policy';

/**
 * Sets both headers before any route answers, errors included (the error handler keeps headers).
 * A policy a later step sets (serve-static's redirect of `/__admin` sends `default-src 'none'`) is
 * merged with `frame-ancestors 'none'` rather than replacing it.
 */
export const frameGuard: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader(CSP, FRAME_ANCESTORS);
  mergeLaterPolicies(res);
  next();
};

function mergeLaterPolicies(res: Response): void {
  const setHeader = res.setHeader;
  res.setHeader = function setHeaderKeepingFrameAncestors(this: Response, name: string, value: number | string | readonly string[]) {
    return setHeader.call(this, name, name.toLowerCase() === CSP ? withFrameAncestors(String(value)) : value);
  } as Response['setHeader'];
}

/** A policy with `frame-ancestors 'none'` in place of any frame-ancestors directive it had. */
export function withFrameAncestors(policy: string): string {
  const kept = policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !/^frame-ancestors(\s|$)/i.test(directive));
  return [...kept, FRAME_ANCESTORS].join('; ');
}
