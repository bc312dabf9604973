// What a provider must answer, as an example body with V3 matching rules: generated values (ids,
// dates, slugs, short URLs, error descriptions) by type or pattern, what the client sent or set up
// (destination, tag names, the error code) exactly. Only the fields the contract requires are
// expected: a provider may leave out `title` and `clickCount`, which openapi.yaml makes optional.
import type { Link } from '../core/api-types.js';
import type { Matcher, PathRules } from './export-pact-v3.js';

// RFC 3339 date-time, as openapi.yaml's `format: date-time` asks of Link.createdAt.
const DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';
// Link.shortUrl's pattern in openapi.yaml (D16).
const SHORT_URL = '^https://[^/]+/[A-Za-z0-9_-]+$';

const TYPE: Matcher = { match: 'type' };
const rule = (matcher: Matcher) => ({ matchers: [matcher] });

export interface ExpectedBody {
  body: unknown;
  rules: PathRules;
}

/**
 * A Link as expected back. `domainExact`: the client named the domain (a create), so its name is
 * part of the outcome; otherwise it comes from the provider's data and only its type is.
 */
export function expectedLink(link: Link, domainExact: boolean): ExpectedBody {
  const body = {
    id: link.id,
    createdAt: link.createdAt,
    destinationUrl: link.destinationUrl,
    slug: link.slug,
    domain: { id: link.domain.id, name: link.domain.name },
    shortUrl: link.shortUrl,
    tags: link.tags.map((tag) => ({ ...(tag.id === undefined ? {} : { id: tag.id }), name: tag.name })),
  };
  const rules: PathRules = {
    '$.id': rule(TYPE),
    '$.createdAt': rule({ match: 'regex', regex: DATE_TIME }),
    '$.slug': rule(TYPE),
    '$.domain.id': rule(TYPE),
    '$.shortUrl': rule({ match: 'regex', regex: SHORT_URL }),
    ...(domainExact ? {} : { '$.domain.name': rule(TYPE) }),
    ...(link.tags.length > 0 ? { '$.tags[*].id': rule(TYPE) } : {}),
  };
  return { body, rules };
}

/** An Error object: its description in words of the provider's own, its code exactly. */
export function expectedError(error: { errorDescription: string; code?: string }): ExpectedBody {
  return {
    body: { errorDescription: error.errorDescription, ...(error.code === undefined ? {} : { code: error.code }) },
    rules: { '$.errorDescription': rule(TYPE) },
  };
}

/** Whether a journal body is a Link as the API answers it (enough of it to expect one). */
export function isLink(body: unknown): body is Link {
  const link = body as Partial<Link> | null;
  return typeof link === 'object' && link !== null && typeof link.id === 'string' && typeof link.slug === 'string' && typeof link.domain?.name === 'string' && Array.isArray(link.tags);
}

export function isErrorObject(body: unknown): body is { errorDescription: string; code?: string } {
  return typeof body === 'object' && body !== null && typeof (body as { errorDescription?: unknown }).errorDescription === 'string';
}
