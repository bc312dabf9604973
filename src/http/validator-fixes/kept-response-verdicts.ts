// express-openapi-validator 5.6.2 judges every answer with Ajv (`ResponseValidator.prototype._validate`,
// openapi.response.validator.js), walking the whole body each time. A read answers the same bytes
// again and again while nothing changes: the admin API's page of an account's 15 links is 15
// links of 8 fields, a tag each, 45 format checks, on every read (issue 40: the read-heavy
// workload). For GET answers we keep which JSON texts were judged valid, per compiled validator,
// status and Accept: the verdict is a function of those and of the bytes, so a kept verdict is the
// verdict. The text is made once and sent as it is (json-text.ts), so the bytes judged are the
// bytes sent.
//
// What is judged on a first sight of a text is exactly what was judged before (the body object);
// the text is kept only when the bytes, parsed back, pass the same validator too, so a body whose
// text differs from what Ajv saw (a Date, a toJSON, an undefined field) is never kept. Invalid
// answers are never kept: they are judged, and refused, every time. Other methods (a create
// answers new bytes each time) are judged as before, without the text. Bounded: at most
// MAX_KEPT_RESPONSE_VERDICTS texts of at most MAX_KEPT_RESPONSE_CHARS characters.
//
// Why this way: `_validate` receives the validators of the route (one object per method, route
// and request Content-Type, built once by `_getOrBuildValidator`, which has the request and is
// called right before it): wrapping both prototype methods is the thinnest change; the validator
// has no option for it.
import { keepJsonText } from '../json-text.js';
import { requireFromValidator, wrapPrototypeMethod, type ModuleLoader } from './internals.js';

/** Texts whose verdict is kept, over all validators; when full, all are dropped and keeping starts again. */
export const MAX_KEPT_RESPONSE_VERDICTS = 64;
/** A longer answer is judged each time (64 texts of this size: at most 8 MiB of two-byte strings). */
export const MAX_KEPT_RESPONSE_CHARS = 65_536;

/** What `_validate` receives (openapi.response.validator.js). */
export interface ValidateArgs {
  validators: object;
  body: unknown;
  statusCode: number | undefined;
  path: string;
  accepts: string[];
}

type Validate = (this: unknown, args: ValidateArgs) => unknown;
interface RequestLike {
  method: string;
  app?: { settings?: Record<string, unknown> };
}
type BuildValidators = (this: unknown, req: RequestLike, responses: unknown) => object;

/**
 * Whether the answer about to be judged is a GET's, sent as JSON.stringify makes it (no
 * 'json replacer', which would send other data than was judged). Set by `_getOrBuildValidator`,
 * taken by the `_validate` the validator calls right after it, in the same synchronous step.
 */
let readNext = false;
/** Per validators, per status and Accept: the texts judged valid. */
let kept = new WeakMap<object, Map<string, Set<string>>>();
let keptCount = 0;

/** How many texts are kept now (tests read the bound). */
export const keptResponseVerdicts = (): number => keptCount;

/** Notes whether the request whose answer is judged next is a read. */
export function markingReads(build: BuildValidators): BuildValidators {
  return function _getOrBuildValidator(this: unknown, req, responses) {
    const validators = build.call(this, req, responses);
    readNext = req.method === 'GET' && req.app?.settings?.['json replacer'] === undefined;
    return validators;
  };
}

/** `_validate`, with the verdicts of GET answers' texts kept. */
export function keptVerdicts(validate: Validate): Validate {
  return function _validate(this: unknown, args) {
    const { validators, body } = args;
    const read = readNext;
    readNext = false;
    if (!read || typeof body !== 'object' || body === null) return validate.call(this, args);
    let text: string | undefined;
    try {
      text = JSON.stringify(body) as string | undefined;
    } catch {
      return validate.call(this, args); // a cycle or a BigInt: judged (and sent) as before
    }
    if (text === undefined) return validate.call(this, args);
    keepJsonText(body, text); // serialised once, whether its verdict is kept or not
    if (text.length > MAX_KEPT_RESPONSE_CHARS) return validate.call(this, args);
    const key = `${args.statusCode} ${args.accepts.join(',')}`;
    if (!textsOf(validators, key).has(text)) {
      validate.call(this, args); // throws on an invalid answer: nothing kept
      if (!bytesPass(this, validate, args, text)) return undefined;
      if (keptCount >= MAX_KEPT_RESPONSE_VERDICTS) forgetAll();
      textsOf(validators, key).add(text);
      keptCount += 1;
    }
    return undefined;
  };
}

/** Whether the text, parsed back, passes the same validator (what the client receives). */
function bytesPass(self: unknown, validate: Validate, args: ValidateArgs, text: string): boolean {
  try {
    validate.call(self, { ...args, body: JSON.parse(text) as unknown });
    return true;
  } catch {
    return false;
  }
}

function textsOf(validators: object, key: string): Set<string> {
  let byKey = kept.get(validators);
  if (!byKey) kept.set(validators, (byKey = new Map()));
  let texts = byKey.get(key);
  if (!texts) byKey.set(key, (texts = new Set()));
  return texts;
}

function forgetAll(): void {
  kept = new WeakMap();
  keptCount = 0;
}

/** Marks our methods, so that a second install (a second copy of this package in one process) does nothing. */
const INSTALLED = Symbol.for('shortlink-mock.validatorKeptResponseVerdicts');

/** Wraps the response validator's `_getOrBuildValidator` and `_validate` (wrapPrototypeMethod says what true and false mean). */
export function installKeptResponseVerdicts(load: ModuleLoader = requireFromValidator): boolean {
  const id = './middlewares/openapi.response.validator';
  const marked = wrapPrototypeMethod(load, id, 'ResponseValidator', '_getOrBuildValidator', INSTALLED, (build) => markingReads(build as unknown as BuildValidators) as never);
  return marked && wrapPrototypeMethod(load, id, 'ResponseValidator', '_validate', INSTALLED, (validate) => keptVerdicts(validate as unknown as Validate) as never);
}
