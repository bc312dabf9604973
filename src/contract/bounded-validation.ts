// The response checker's Ajv (response-checker.ts), with what one body may cost it bounded. Ajv with
// allErrors spends time quadratic in the errors an array's items hold, and collects every error
// however many: an upstream answer or a pact body of 40,000 tags with a numeric id cost 35 s. So:
//   - an array over its schema's maxItems is reported by its length alone, before Ajv walks it
//     (src/core/array-bounds.ts);
//   - a body past ALL_ERRORS_MAX_CHARS of text (or, without its text, past ALL_ERRORS_MAX_NODES
//     values) is validated only up to its first error, by a second Ajv compiled on first need.
// A body that could keep the contract is far below both: every answer the mock gives, every
// answer of a contract suite's server, keeps all its errors.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { arrayBoundsOf, cutOversizeArrays, tooManyItems, type OversizeArray } from '../core/array-bounds.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv, options: { mode: 'full' }) => Ajv;

export const ALL_ERRORS_MAX_CHARS = 64 * 1024;
export const ALL_ERRORS_MAX_NODES = 2_000;

/** A body's errors against one schema ([] when it keeps it); `textLength`: the size of the text it was parsed from, when known. */
export type BodyErrors = ((body: unknown, textLength?: number) => ErrorObject[]) & {
  /** The body with its arrays over maxItems cut to one past it (cutOversizeArrays). */
  bounded: (body: unknown) => unknown;
};

export class BoundedAjv {
  private readonly thorough: Ajv;
  private firstErrorAjv?: Ajv;

  constructor(
    private readonly document: object,
    private readonly name: string,
  ) {
    this.thorough = this.ajv(true);
  }

  /** `ref`: the schema's place in the document ('<name>#/...'); `schema`: the schema itself, for its array bounds. */
  compile(ref: string, schema: unknown): BodyErrors {
    const thorough = this.thorough.compile({ $ref: ref });
    const bounds = arrayBoundsOf(this.document, schema);
    let firstError: ValidateFunction | undefined;
    const errors = (body: unknown, textLength?: number): ErrorObject[] => {
      const oversize = bounds?.(body);
      if (oversize) return [maxItemsError(oversize)];
      const large = textLength === undefined ? isLarge(body) : textLength > ALL_ERRORS_MAX_CHARS;
      const validate = large ? (firstError ??= this.firstError().compile({ $ref: ref })) : thorough;
      return validate(body) ? [] : [...(validate.errors ?? [])];
    };
    return Object.assign(errors, { bounded: (body: unknown) => (bounds ? cutOversizeArrays(bounds, body) : body) });
  }

  private firstError(): Ajv {
    return (this.firstErrorAjv ??= this.ajv(false));
  }

  private ajv(allErrors: boolean): Ajv {
    // verbose: errors carry the offending value, so a report can show what was sent.
    const ajv = addFormats(new Ajv({ strict: false, allErrors, verbose: true }), { mode: 'full' });
    ajv.addSchema(this.document, this.name);
    return ajv;
  }
}

/** Ajv's maxItems error, its data the length (the array itself would be previewed whole). */
function maxItemsError({ path, maxItems, length }: OversizeArray): ErrorObject {
  const instancePath = path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  return { keyword: 'maxItems', instancePath, schemaPath: '#/maxItems', params: { limit: maxItems }, message: tooManyItems(maxItems), data: `${length} items` };
}

/**
 * holdsMoreThan(body, ALL_ERRORS_MAX_NODES), walked once per object body: a judge of two contracts
 * (evolve) validates each body against both, and the walk was a tenth of its time.
 */
const sized = new WeakMap<object, boolean>();

function isLarge(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  let large = sized.get(body);
  if (large === undefined) sized.set(body, (large = holdsMoreThan(body, ALL_ERRORS_MAX_NODES)));
  return large;
}

/** Whether the value holds more than `limit` values in all: a walk of `limit` steps at most. */
function holdsMoreThan(value: unknown, limit: number): boolean {
  const pending: unknown[] = [value];
  let seen = 0;
  while (pending.length) {
    const next = pending.pop();
    if (++seen > limit) return true;
    if (typeof next === 'object' && next !== null) {
      for (const inner of Object.values(next)) {
        pending.push(inner);
        if (pending.length + seen > limit) return true;
      }
    }
  }
  return false;
}
