// express-openapi-validator 5.6.2 parses Content-Type strings again and again on every request:
// the request's header twice (request side and response side, `ContentType.from(req)`), then, for
// each answer, the response's type and every type the contract lists (`ContentType.fromString`,
// in findResponseContent). Each parse is `new ContentType(text)` (a global regular expression
// walked with matchAll, a split, a lower-case, a second regular expression), and most are followed
// by `normalize()` (a sort of the parameters): 4–8 µs of a create's CPU, only to build cache keys
// and pick a media type. A client sends the same one or two spellings on every request and the
// contract lists a handful, so we keep the parsed value per spelling.
//
// Why this way: the validator reaches both parsers through the class object at each call
// (`util_1.ContentType.from`, and `ContentType.fromString` inside util.js), so replacing those two
// static methods is the thinnest change. Every caller only reads the result (`normalize()`,
// `mediaType`, `isWildCard`, `equivalents()`) and never changes it, so a shared instance is
// invisible to them; it is frozen all the same, so that a later validator that did change it would
// throw in our tests rather than leak one request's parameters into another's. `normalize()` with
// its default argument is answered from the same cache; any other call goes to the class's method.
import { requireFromValidator, type ModuleLoader } from './internals.js';

interface ContentTypeLike {
  normalize(excludeParams?: string[]): string | undefined;
}
interface ContentTypeClass {
  from(req: { headers: Record<string, unknown> }): ContentTypeLike;
  fromString(type: string | undefined): ContentTypeLike;
}

/** Marks our method, so that a second install (a second copy of this package in one process) does nothing. */
const INSTALLED = Symbol.for('shortlink-mock.validatorContentTypeCache');

/** Spellings kept: a client that sends a new one on every request can never grow the cache without end. */
export const MAX_CACHED_CONTENT_TYPES = 64;
/** A longer header is parsed each time, as before: keeping it would let 64 requests hold 64 large strings. */
export const MAX_CACHED_CONTENT_TYPE_LENGTH = 128;

/** Memoised `from` and `fromString` over the class's own parser (its `fromString` as it is now). */
export function cachedContentTypeParsers(ContentType: ContentTypeClass): Pick<ContentTypeClass, 'from' | 'fromString'> {
  const parse = ContentType.fromString;
  const parsed = new Map<string | undefined, ContentTypeLike>();
  const fromString = (text: string | undefined): ContentTypeLike => {
    if (text !== undefined && (typeof text !== 'string' || text.length > MAX_CACHED_CONTENT_TYPE_LENGTH)) return parse(text);
    let known = parsed.get(text);
    if (known === undefined) {
      known = withNormalizedOnce(parse(text));
      if (parsed.size < MAX_CACHED_CONTENT_TYPES) parsed.set(text, known);
    }
    return known;
  };
  return { fromString, from: (req) => fromString(req.headers['content-type'] as string | undefined) };
}

/** The instance, frozen, answering `normalize()` (default argument) from a value computed once. */
function withNormalizedOnce(contentType: ContentTypeLike): ContentTypeLike {
  const normalized = contentType.normalize();
  const normalize = contentType.normalize;
  // An argument of undefined is the default argument too; no rest parameter (an array per call).
  Object.defineProperty(contentType, 'normalize', {
    value: (excludeParams?: string[]) => (excludeParams === undefined ? normalized : normalize.call(contentType, excludeParams)),
  });
  return Object.freeze(contentType);
}

/**
 * Installs the cache on the validator's ContentType; true when it is in place (also when it
 * already was). False, changing nothing, if the class no longer looks as expected: the validator
 * then still works, only slower, and test/process/patches.test.ts fails.
 */
export function installContentTypeCache(load: ModuleLoader = requireFromValidator): boolean {
  const ContentType = load('./middlewares/util')?.['ContentType'] as ContentTypeClass | undefined;
  if (typeof ContentType?.from !== 'function' || typeof ContentType.fromString !== 'function') return false;
  if (INSTALLED in ContentType.fromString) return true;
  const cached = cachedContentTypeParsers(ContentType);
  ContentType.fromString = Object.assign(cached.fromString, { [INSTALLED]: true });
  ContentType.from = cached.from;
  return ContentType.fromString === cached.fromString && ContentType.from === cached.from;
}
