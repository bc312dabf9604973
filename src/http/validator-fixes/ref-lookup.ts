// express-openapi-validator 5.6.2 prepares each document once, before its first request, in a
// SchemaPreprocessor whose `resolveSchema(schema)` finds what a `$ref` points at by calling
// `ajv.getSchema(ref).schema`: Ajv *compiles* the named component (and everything it references)
// to hand back the very object it was given. That Ajv is the preprocessor's own and is thrown away,
// so every compile is wasted: ~150 ms of CPU on a cold start for our two documents, paid by the
// first request (measured with npm run bench:start, 'first API answer').
//
// The fix looks the reference up where getSchema would find it, without compiling: the schemas
// the validator added to that Ajv by key (`#/components/schemas/<name>`), following string
// aliases like getSchema does, and puts the object found into the preprocessor's own
// `resolvedSchemaCache`, which `resolveSchema` reads first. The original then returns exactly what
// it returned before. A reference Ajv does not hold by key (a response, a parameter) is left to the
// original, as before. Nothing in node_modules is touched, so an installed copy starts as fast.
import { requireFromValidator, type ModuleLoader } from './internals.js';

interface SchemaEnvLike {
  schema?: unknown;
}
interface AjvLike {
  schemas?: Record<string, SchemaEnvLike | string | undefined>;
  refs?: Record<string, SchemaEnvLike | string | undefined>;
}
interface Preprocessor {
  ajv: AjvLike;
  resolvedSchemaCache: Map<string, unknown>;
}
type ResolveSchema = (this: Preprocessor, schema: unknown) => unknown;

/** Marks our method, so that a second install (a second copy of this package in one process) does nothing. */
const INSTALLED = Symbol.for('shortlink-mock.validatorRefLookup');
/** The preprocessor's own method, kept on ours (the tests compare the two). */
export const ORIGINAL = Symbol.for('shortlink-mock.validatorRefLookup.original');
/** More hops than any chain of aliases: a cycle cannot loop for ever. */
const MAX_ALIAS_HOPS = 32;

/** What `ajv.getSchema(ref)` would compile and return the `.schema` of, found without compiling. */
export function addedSchema(ajv: AjvLike, ref: string): object | undefined {
  let key = ref;
  for (let hop = 0; hop < MAX_ALIAS_HOPS; hop += 1) {
    // Ajv's normalizeId: a trailing '#' or '#/' is not part of the key.
    const normalized = key.replace(/#\/?$/, '');
    const found = ajv.schemas?.[normalized] ?? ajv.refs?.[normalized];
    if (typeof found === 'string') {
      key = found;
      continue;
    }
    const schema = found?.schema;
    return typeof schema === 'object' && schema !== null ? schema : undefined;
  }
  return undefined;
}

export function lookupFirst(original: ResolveSchema): ResolveSchema {
  return function resolveSchema(this: Preprocessor, schema: unknown): unknown {
    const ref = (schema as { $ref?: unknown } | null)?.$ref;
    if (typeof ref === 'string' && this.resolvedSchemaCache instanceof Map && !this.resolvedSchemaCache.has(ref)) {
      const found = addedSchema(this.ajv, ref);
      if (found) this.resolvedSchemaCache.set(ref, found);
    }
    return original.call(this, schema);
  };
}

/**
 * Installs the lookup in the validator's SchemaPreprocessor; true when it is in place (also when it
 * already was). False, changing nothing, if the class no longer looks as expected: the validator
 * then still works, only its first request is slower, and test/process/patches.test.ts fails.
 */
export function installRefLookup(load: ModuleLoader = requireFromValidator): boolean {
  const preprocessorModule = load('./middlewares/parsers/schema.preprocessor');
  const prototype = (preprocessorModule?.['SchemaPreprocessor'] as { prototype?: Record<PropertyKey, unknown> } | undefined)?.prototype;
  const current = prototype?.['resolveSchema'];
  if (!prototype || typeof current !== 'function') return false;
  if (INSTALLED in current) return true;
  prototype['resolveSchema'] = Object.assign(lookupFirst(current as ResolveSchema), { [INSTALLED]: true, [ORIGINAL]: current });
  return true;
}
