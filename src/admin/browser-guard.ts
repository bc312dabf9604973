// The admin API can reset data and list every API key, and the developer's browser can reach it:
// any page they visit may send it requests. This guard keeps those pages out (D29):
//   - a state change (any method but GET/HEAD) whose Origin is not the mock's own is refused:
//     "simple" cross-origin requests (a POST with text/plain) need no CORS preflight to be sent;
//   - without --admin-token, only Host values that name this machine are answered (loopback names
//     and --allowed-host ones): a DNS-rebinding page talks to 127.0.0.1 under its own name, and
//     that name shows in Host.
// The admin routes grant no CORS at all (app.ts mounts them before the CORS middleware), so no
// foreign page can read an answer either. The console is served from the same origin and passes.
import type { Request, RequestHandler } from 'express';
import { errors } from '../core/errors.js';
import { isLoopbackHost } from './admin-token.js';

export interface BrowserGuardOptions {
  /** With a token, the token is the guard and any Host is answered. */
  adminToken?: string;
  /** Host names (without port) answered besides the loopback ones, e.g. a name in /etc/hosts. */
  allowedHosts?: readonly string[];
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function browserGuard(options: BrowserGuardOptions): RequestHandler {
  const allowed = new Set((options.allowedHosts ?? []).map((host) => host.toLowerCase()));
  return (req, _res, next) => {
    const host = req.headers.host;
    if (options.adminToken === undefined && host !== undefined) {
      const name = hostName(host);
      if (!isLocalName(name) && !allowed.has(name)) throw errors.adminHostRefused(name);
    }
    if (!SAFE_METHODS.has(req.method) && isForeignOrigin(req)) throw errors.adminOriginRefused(req.headers.origin ?? 'a cross-site page');
    next();
  };
}

/**
 * A Host value as RFC 9110 allows it: a name or an IPv4 address, or an IPv6 address in brackets,
 * then at most a port of digits. A browser sends nothing else; anything else is named whole.
 */
const HOST_VALUE = /^(\[[0-9a-f:.]+\]|[^[\]:/?#@\s]+)(?::\d{0,5})?$/;

/**
 * `Host: [::1]:4010` → `::1`; `Host: LocalHost:80` → `localhost`. A malformed value
 * (`127.0.0.1:abc`, `localhost:80/x`, `127.0.0.1:1@evil`) is returned whole, which is never a local
 * name: refused without a token.
 */
export function hostName(host: string): string {
  const trimmed = host.trim().toLowerCase();
  const name = HOST_VALUE.exec(trimmed)?.[1];
  if (name === undefined) return trimmed;
  return name.startsWith('[') ? name.slice(1, -1) : name;
}

function isLocalName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackHost(name);
}

/** Origin names another site than the Host the request was sent to (or an opaque `null` origin). */
function isForeignOrigin(req: Request): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return req.headers['sec-fetch-site'] === 'cross-site';
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true; // 'null' (sandboxed frames, file: pages) or garbage: never the mock's own page
  }
  return originHost.toLowerCase() !== (req.headers.host ?? '').trim().toLowerCase();
}
