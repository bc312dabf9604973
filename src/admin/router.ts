// The admin API under /__admin, in order: its public contract (and the console's assets), the
// token-less readiness route, the token guard, the MCP endpoint (/__admin/mcp), JSON bodies, the admin contract's validator (requests and responses), the routes,
// and a 404 Error object for anything else.
import express, { type RequestHandler, type Router } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Contract } from '../core/contract-types.js';
import { errors } from '../core/errors.js';
import { jsonBody } from '../http/json-body.js';
import { servedContract } from '../http/served-contract.js';
import { requireAdminToken } from './admin-token.js';
import { addStateRoutes, type StateDeps } from './state-routes.js';
import { addTrafficRoutes, type TrafficDeps } from './traffic-routes.js';
import { addViolationRoutes, type ViolationDeps } from './violation-routes.js';
import { addProviderStateRoutes } from './provider-state-routes.js';
import { addVarietyRoutes, type VarietyDeps } from './variety-routes.js';
import { addContractRoutes, type ContractDeps } from './contract-routes.js';
import { addReadyRoute } from './ready-route.js';
import { validatorFormats } from '../http/kept-formats.js';
import { oneLayer } from '../http/one-layer.js';

export interface AdminDeps extends StateDeps, TrafficDeps, ViolationDeps, VarietyDeps, ContractDeps {
  /** The admin API's own OpenAPI document, bundled (no external references). */
  adminContract: Contract;
  adminToken?: string;
  /** Static files of the web console, served at /__admin/. */
  consoleDir?: string;
  /** The MCP server over Streamable HTTP, at /__admin/mcp (src/toolkit/mcp/): behind the token, with its own body bound. */
  mcp?: RequestHandler;
}

/** The largest body the admin API reads (docs/options.md, Limits); past it, a 400 naming it. */
export const ADMIN_BODY_LIMIT = '64kb';

const CONSOLE_FILE = /^\/$|\.(html|js|css)$/;

type ValidatorSpec = Parameters<typeof OpenApiValidator.middleware>[0]['apiSpec'];

/**
 * The admin contract's validator (requests and responses), one per document: express-openapi-validator
 * compiles a route's schemas on its first request, and a validator of its own for each mock made
 * each of them compile again (about 50 ms of CPU a mock whose admin API is called; the tests make
 * hundreds). Its state is per document and route, never per app, as for the API's (src/http/validator.ts).
 */
const adminValidators = new WeakMap<object, RequestHandler[]>();

function adminValidator(document: object): RequestHandler[] {
  let validator = adminValidators.get(document);
  if (!validator) adminValidators.set(document, (validator = newAdminValidator(document)));
  return validator;
}

function newAdminValidator(document: object): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(document) as unknown as ValidatorSpec,
    validateApiSpec: false, // linted in CI, like openapi.yaml
    // No coercion: {"count": "3"} is a 400, as the admin contract says (query strings are still read as their types).
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
    validateResponses: { removeAdditional: false, coerceTypes: false },
    validateSecurity: false,
    ajvFormats: { mode: 'full' },
    // The same judges as ajv-formats' full mode, with each verdict kept (src/http/kept-formats.ts).
    formats: validatorFormats,
  }) as unknown as RequestHandler[];
}

export function adminRouter(deps: AdminDeps): Router {
  const router = express.Router();
  router.get('/openapi.yaml', servedContract(() => deps.adminContract.text));
  // The console's files only: a stat() per admin API call would cost every admin request.
  if (deps.consoleDir) {
    const files = express.static(deps.consoleDir, { index: 'index.html', fallthrough: true });
    router.use((req, res, next) => (req.method === 'GET' && CONSOLE_FILE.test(req.path) ? files(req, res, next) : next()));
  }
  // D35: readiness for probes, before the token guard (ready-route.ts says why).
  addReadyRoute(router, deps);
  router.use(requireAdminToken(deps.adminToken));
  // Before the admin API's body parser and validator: MCP messages are JSON-RPC, read (up to their own bound) by the SDK.
  if (deps.mcp) router.use('/mcp', deps.mcp);
  // The body parser and the validator's middlewares as one router layer (src/http/one-layer.ts says why).
  router.use(oneLayer([jsonBody(ADMIN_BODY_LIMIT), ...adminValidator(deps.adminContract.document)]));
  addStateRoutes(router, deps);
  addTrafficRoutes(router, deps);
  addViolationRoutes(router, deps);
  addProviderStateRoutes(router, deps);
  addVarietyRoutes(router, deps);
  addContractRoutes(router, deps);
  router.use((req) => {
    throw errors.adminRouteNotFound(req.method, req.originalUrl);
  });
  return router;
}
