// The request target, made plain before anything reads it (RFC 9112 §3.2):
//   - absolute-form (`DELETE http://127.0.0.1:4010/links/x HTTP/1.1`, as proxies and some clients
//     send it) becomes origin-form, and its authority becomes the Host (§3.2.2), so routing, the
//     validator (which reads req.originalUrl) and short-URL visits all see the same path;
//   - a path segment that does not percent-decode (`%zz`, `%ff`) is taken literally, `%` and all:
//     an id that cannot be decoded is an id that names no link, so updateLink and deleteLink answer
//     their documented 404, never a 400 that deleteLink does not document.
import type { RequestHandler } from 'express';

export const plainRequestTarget: RequestHandler = (req, _res, next) => {
  let target = req.url;
  if (!target.startsWith('/')) {
    const absolute = parseAbsolute(target);
    if (absolute) {
      target = `${absolute.pathname}${absolute.search}`;
      req.headers.host = absolute.host;
    }
  }
  target = literalUndecodableSegments(target);
  if (target !== req.url) {
    req.url = target;
    req.originalUrl = target;
  }
  next();
};

function parseAbsolute(target: string): URL | undefined {
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    return new URL(target);
  } catch {
    return undefined;
  }
}

/** `/links/%zz?x=1` → `/links/%25zz?x=1`; a path that decodes is returned as it is. */
export function literalUndecodableSegments(target: string): string {
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (!path.includes('%') || decodes(path)) return target;
  const fixed = path
    .split('/')
    .map((segment) => (decodes(segment) ? segment : encodeURIComponent(segment)))
    .join('/');
  return queryAt === -1 ? fixed : `${fixed}${target.slice(queryAt)}`;
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
