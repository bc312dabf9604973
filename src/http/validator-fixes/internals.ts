// The CommonJS modules inside express-openapi-validator that our run-time fixes touch (each
// installer in this folder). They are loaded through the
// validator's own `require`, so we reach the very instances it uses, wherever npm installed it
// (hoisted or nested in a consumer's node_modules). Relative requires bypass a package's
// "exports" map, and the validator (5.6.2) has none anyway.
import { createRequire } from 'node:module';

const validatorMain = createRequire(import.meta.url).resolve('express-openapi-validator');
const validatorRequire = createRequire(validatorMain);

/** How an installer reaches the validator's modules (tests pass one that imitates a changed validator). */
export type ModuleLoader = (id: string) => Record<string, unknown> | undefined;

/**
 * Loads a module as the validator sees it: a package name, or a path relative to its dist/index.js.
 * Undefined when there is none (a later validator moved it): a fix is then skipped, never a crash.
 */
export const requireFromValidator: ModuleLoader = (id) => {
  try {
    return validatorRequire(id) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/** A prototype method, as wrapPrototypeMethod hands it over and takes it back. */
export type PrototypeMethod = (this: unknown, ...args: never[]) => unknown;

/**
 * Replaces `<className>.prototype.<method>` of one of the validator's modules by `wrap(original)`;
 * true when in place (also when it already was: `marker` on the method says so, so that a second
 * copy of this package in one process wraps nothing twice). False, changing nothing, when the class
 * or the method is gone: the validator then still works, only slower, and
 * test/process/patches.test.ts fails.
 */
export function wrapPrototypeMethod(load: ModuleLoader, id: string, className: string, method: string, marker: symbol, wrap: (original: PrototypeMethod) => PrototypeMethod): boolean {
  const prototype = (load(id)?.[className] as { prototype?: Record<string, unknown> } | undefined)?.prototype;
  const original = prototype?.[method];
  if (!prototype || typeof original !== 'function') return false;
  if (marker in original) return true;
  prototype[method] = Object.assign(wrap(original as PrototypeMethod), { [marker]: true });
  return true;
}
