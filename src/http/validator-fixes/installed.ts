// Ten fixes to the validator's speed, made at run time when this module loads (src/http/validator.ts
// imports it before any chain is built, so they also serve the admin API's validator): its route
// lookup compiles each route's regular expression once instead of on every request
// (route-cache.ts), its OpenAPI meta-schema is compiled only if a document is really checked
// (lazy-meta-schema.ts), its preparation of a document finds what a $ref names without compiling
// it (ref-lookup.ts), it parses each spelling of Content-Type once (content-type-cache.ts), and
// its middlewares no longer wait a turn of the microtask queue for a contract loaded long ago
// (settled-contract.ts; once loaded they call what they built at once: settled-steps.ts), it finds the operation of a path it matched before without walking the
// contract's routes again (metadata-cache.ts), and it leaves a request with no parameters to
// rewrite as it is (no-parameters.ts), and it does not walk a GET answer again whose bytes it judged
// valid before (kept-response-verdicts.ts), and it finds what it built for a route without
// making a key text per request (route-keyed.ts), and it judges each of the contract's media types
// once, not on every answer (json-media-types.ts). The first ones were patch-package patches
// applied by a `postinstall`, which broke `npm install` of the packed package and never reached an
// installed copy; the why of each is in its module. A fix that no longer fits the validator is skipped (the mock stays
// correct, only slower) and test/process/patches.test.ts fails.
import { installLazyMetaSchema } from './lazy-meta-schema.js';
import { installRefLookup } from './ref-lookup.js';
import { installValidatorRouteCache } from './route-cache.js';
import { installContentTypeCache } from './content-type-cache.js';
import { installSettledContract } from './settled-contract.js';
import { installMetadataCache } from './metadata-cache.js';
import { installNoParameters } from './no-parameters.js';
import { installKeptResponseVerdicts } from './kept-response-verdicts.js';
import { installRouteKeyed } from './route-keyed.js';
import { installJsonMediaTypes } from './json-media-types.js';

/** Which fixes are in place: each true when the installed validator still has what it replaces. */
export const validatorFixes = Object.freeze({
  routeCache: installValidatorRouteCache(),
  lazyMetaSchema: installLazyMetaSchema(),
  refLookup: installRefLookup(),
  contentTypeCache: installContentTypeCache(),
  settledContract: installSettledContract(),
  metadataCache: installMetadataCache(),
  noParameters: installNoParameters(),
  // Before keptResponseVerdicts, which wraps the response lookup again.
  routeKeyed: installRouteKeyed(),
  keptResponseVerdicts: installKeptResponseVerdicts(),
  jsonMediaTypes: installJsonMediaTypes(),
});
