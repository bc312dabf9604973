// express-openapi-validator 5.6.2 asks, for every answer it validates, whether the contract's media
// type of that answer can be validated as JSON (`ResponseValidator.prototype.canValidateContentType`):
// the type text parsed by `content-type`, then its type by `media-typer` (regular expressions, an
// object and a parameters loop each), ~3 µs of a create's CPU on a loaded machine, to answer the same
// true for `application/json` every time. The text is one of the contract's own media types (the
// validator picks it among the response's content keys), so we keep the verdict per text.
//
// Why this way: the method reads only its argument (not `this`, not the request), so its verdict
// for a text never changes; a text it cannot parse throws, and is asked again each time, as before.
import { MAX_CACHED_CONTENT_TYPE_LENGTH, MAX_CACHED_CONTENT_TYPES } from './content-type-cache.js';
import { requireFromValidator, wrapPrototypeMethod, type ModuleLoader, type PrototypeMethod } from './internals.js';

/** Verdicts by media type text; the bounds are the parse cache's (content-type-cache.ts), for the same kind of text. */
export class MediaTypeVerdicts {
  private readonly verdicts = new Map<string, boolean>();

  /** The verdict kept for `type`, if any. */
  get(type: string): boolean | undefined {
    return this.verdicts.get(type);
  }

  keep(type: string, verdict: boolean): void {
    if (typeof type === 'string' && type.length <= MAX_CACHED_CONTENT_TYPE_LENGTH && this.verdicts.size < MAX_CACHED_CONTENT_TYPES) this.verdicts.set(type, verdict);
  }

  get size(): number {
    return this.verdicts.size;
  }
}

/** Marks our method, so that a second install (a second copy of this package in one process) does nothing. */
const INSTALLED = Symbol.for('shortlink-mock.validatorJsonMediaTypes');

/** Wraps the method (wrapPrototypeMethod says what true and false mean). */
export function installJsonMediaTypes(load: ModuleLoader = requireFromValidator): boolean {
  return wrapPrototypeMethod(load, './middlewares/openapi.response.validator', 'ResponseValidator', 'canValidateContentType', INSTALLED, (original) => {
    const judgeOnce = original as unknown as (this: unknown, type: string) => boolean;
    const verdicts = new MediaTypeVerdicts();
    return function (this: unknown, type: string) {
      const known = verdicts.get(type);
      if (known !== undefined) return known;
      // A text it cannot parse throws here, and is not kept: asked again next time, as before.
      const verdict = judgeOnce.call(this, type);
      verdicts.keep(type, verdict);
      return verdict;
    } as unknown as PrototypeMethod;
  });
}
