// express-openapi-validator 5.6.2 builds an OpenAPISchemaValidator (an Ajv compile of the whole
// OpenAPI meta-schema, ~75 ms) at every start, then uses it only when `validateApiSpec` is on.
// Ours is off (the contracts are linted in CI), so we make that class lazy: it compiles on its
// first `validate()`, i.e. only when the document is really checked (it was a patch-package
// patch until issue 14). Done at run time without touching node_modules, so an installed copy
// of this package starts as fast as the repository.
//
// Why this way: no option skips the construction, and the validator's start-up reads
// `openapi_schema_validator_1.OpenAPISchemaValidator` through the module object when it runs, so
// replacing that export (a module private to the validator) is enough; the replacement keeps the
// same constructor and `validate()` contract and delegates to the original class.
import { requireFromValidator, type ModuleLoader } from './internals.js';

interface SchemaValidator {
  validate(document: unknown): { errors: unknown[] };
}
type SchemaValidatorClass = new (options: unknown) => SchemaValidator;

/** Marks our class, so that a second install (a second copy of this package in one process) does nothing. */
const INSTALLED = Symbol.for('shortlink-mock.validatorLazyMetaSchema');

/** A class with `Eager`'s contract that builds the eager validator on the first `validate()`. */
export function lazySchemaValidator(Eager: SchemaValidatorClass): SchemaValidatorClass {
  return class LazyOpenAPISchemaValidator implements SchemaValidator {
    readonly #options: unknown;
    #eager: SchemaValidator | undefined;

    constructor(options: unknown) {
      this.#options = options;
    }

    validate(document: unknown): { errors: unknown[] } {
      this.#eager ??= new Eager(this.#options);
      return this.#eager.validate(document);
    }
  };
}

/**
 * Installs the lazy class in the validator; true when it is in place (also when it already was).
 * False, changing nothing, if the module no longer looks as expected: the validator then still
 * works, only starts slower, and test/process/patches.test.ts fails.
 */
export function installLazyMetaSchema(load: ModuleLoader = requireFromValidator): boolean {
  const schemaValidatorModule = load('./framework/openapi.schema.validator');
  const Eager = schemaValidatorModule?.['OpenAPISchemaValidator'];
  if (!schemaValidatorModule || typeof Eager !== 'function' || typeof Eager.prototype?.validate !== 'function') return false;
  if (INSTALLED in Eager) return true;
  const Lazy = Object.assign(lazySchemaValidator(Eager as SchemaValidatorClass), { [INSTALLED]: true });
  schemaValidatorModule['OpenAPISchemaValidator'] = Lazy;
  return schemaValidatorModule['OpenAPISchemaValidator'] === Lazy;
}
