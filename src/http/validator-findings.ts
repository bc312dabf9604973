// The OpenAPI validator's findings in the API's words: one sentence per field, the most telling
// one, and whether the findings are the response's (a contract violation). The words only:
// errors.ts, which reads them, decides every status.
import { keepFirst } from '../core/violations.js';

export interface ValidationItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

/** What the validator's error holds that its findings are read from (errors.ts's HttpLikeError has the rest). */
export interface ValidatorError {
  status?: number;
  message?: string;
  errors?: ValidationItem[];
}

/** The response validator reports paths under /response; its errors are contract violations. */
export function isResponseViolation(error: ValidatorError): boolean {
  if (error.status !== 500) return false;
  const items = error.errors ?? [];
  return items.some((item) => /^[/.]response/.test(item.path ?? '') || /^no schema defined for status code/.test(item.message ?? ''));
}

export function describeMediaType(message: string | undefined): string {
  const sent = message?.replace(/^unsupported media type\s*/, '');
  const got = !sent || sent === 'undefined' ? 'no content type' : `content type '${sent}'`;
  return `the request body must be application/json (got ${got})`;
}

/**
 * "request body: unknown field 'slug'; request body: 'destinationUrl' must match format \"uri\"":
 * the first MAX_VIOLATIONS_PER_SIDE, the rest counted (a 12 KiB body can hold 1,000 unknown fields).
 */
export function describeValidationErrors(error: ValidatorError): string {
  const { kept, notKept } = keepFirst(validationMessages(error));
  return notKept ? `${kept.join('; ')}; and ${notKept} more` : kept.join('; ');
}

/** The validator's findings, one sentence per field, the most telling one: a format says more to a reader than a regex. */
export function validationMessages(error: ValidatorError): string[] {
  return mostTellingItems(error).map(describeItem);
}

/** The validator's findings, the most telling one per field. */
export function mostTellingItems(error: ValidatorError): ValidationItem[] {
  const items = error.errors?.length ? error.errors : [{ message: error.message ?? 'invalid request' }];
  const perField = new Map<string, ValidationItem>();
  for (const item of items) {
    const kept = perField.get(item.path ?? '');
    if (!kept || rank(item) < rank(kept)) perField.set(item.path ?? '', item);
  }
  return [...perField.values()];
}

/**
 * Patterns of openapi.yaml read as sentences (test/http/text-fields.test.ts checks they are the
 * contract's own). The plain-text rule (D30) and the absolute URL (D13) are the most telling
 * messages for a field they fail.
 */
export const PLAIN_TEXT_PATTERN = '^[^\\x00-\\x1F\\x7F-\\x9F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uD800-\\uDFFF]*$';
/** DestinationUrl's pattern (D13): openapi.yaml's example of an invalid URL says it in these words. */
export const ABSOLUTE_URL_PATTERN = '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#\\s]+';
const PATTERN_SENTENCES: Record<string, string> = {
  [PLAIN_TEXT_PATTERN]: 'must be plain text: no control characters, line separators, bidirectional controls or lone surrogates',
  [ABSOLUTE_URL_PATTERN]: 'must be an absolute URL with a scheme and a host',
  '\\S': 'must not be blank',
};
/** Patterns whose sentence says more than any other finding on the field (a URL's also fails format "uri"; its sentence names what is missing). */
const MOST_TELLING_PATTERNS = new Set([PLAIN_TEXT_PATTERN, ABSOLUTE_URL_PATTERN]);

const patternOf = (item: ValidationItem): string | undefined => /^must match pattern "(.*)"$/.exec(item.message ?? '')?.[1];

function rank(item: ValidationItem): number {
  if (!item.errorCode?.startsWith('pattern')) return 0;
  return MOST_TELLING_PATTERNS.has(patternOf(item) ?? '') ? -1 : 1;
}

const LOCATIONS: Record<string, string> = { body: 'request body', query: 'query', params: 'path', headers: 'header', response: 'response' };

/** A validator path's first segment in words: 'body' → 'request body'. */
export const locationWords = (location: string): string => LOCATIONS[location] ?? location;

export function describeItem(item: ValidationItem): string {
  const [location = 'request', ...field] = (item.path ?? '').split('/').filter(Boolean);
  const where = locationWords(location);
  const name = field.join('.');
  const code = item.errorCode?.split('.')[0];
  const pattern = patternOf(item);
  const message = (pattern !== undefined ? PATTERN_SENTENCES[pattern] : undefined) ?? item.message ?? 'is invalid';
  const wholeBody = describeWholeBody(item, location, name, code);
  if (wholeBody) return wholeBody;
  if (code === 'additionalProperties' && name) return `${where}: unknown field '${name}'`;
  if (code === 'required' && name) return `${where}: missing required field '${name}'`;
  if (location === 'query' && /^Unknown query parameter/.test(message)) return `query: unknown parameter '${name}'`;
  if (code === 'minProperties') return `${where}${name ? ` '${name}'` : ''}: must have at least one field`;
  return name ? `${where}: '${name}' ${message}` : `${where}: ${message}`;
}

/** What the validator says about the body as a whole, in the API's words rather than its own. */
function describeWholeBody(item: ValidationItem, location: string, name: string, code: string | undefined): string | undefined {
  // The validator loses the name of a field whose name is empty ({"": 1}): its path is empty.
  if (code === 'additionalProperties' && !item.path) return "request body: unknown field '' (a field with an empty name)";
  if (location !== 'body' || name) return undefined;
  if (code === 'required') return 'the request has no body; send a JSON object';
  if (code === 'type') return 'request body must be a JSON object, not an array';
  return undefined;
}
