// createApp(deps) → an Express app. Never listens: the CLI and the tests do that. The order of
// the middleware is the order of precedence, written down once:
//   auth (401) → scenario choice (400) → request validation (400) → scenario → stateful store → error.
import cors from 'cors';
import express, { type Express } from 'express';
import type { LinkService } from './core/links.js';
import { errors } from './core/errors.js';
import type { RandomInt } from './core/random.js';
import { SCENARIO_HEADER } from './core/scenario-choice.js';
import type { ScenarioRegistry } from './core/scenario-registry.js';
import { adminRouter } from './http/admin.js';
import { authenticate, API_KEY_HEADER } from './http/authenticate.js';
import { BODY_LIMIT, createErrorHandler } from './http/errors.js';
import { OperationTable, type OpenApiDocument } from './http/operation-table.js';
import { dispatchByOperationId, linkHandlers, type OperationHandlers } from './http/operations.js';
import { requestLog } from './http/request-log.js';
import { applyRequestScenario, chooseRequestScenario, realSleep, type Sleep } from './http/scenarios.js';
import { contractValidator } from './http/validator.js';
import type { ContractRules } from './scenarios/contract-rules.js';

export interface Contract {
  /** openapi.yaml, parsed. */
  document: OpenApiDocument;
  /** openapi.yaml as written, served at GET /openapi.yaml. */
  text: string;
}

export interface AppDeps {
  service: LinkService;
  contract: Contract;
  /** What the contract lets each operation answer, for Prefer codes. */
  contractRules: ContractRules;
  scenarios: ScenarioRegistry;
  reset: () => Promise<void>;
  version: string;
  /** Picks delays within a scenario's range. */
  random: RandomInt;
  /** Waits out a scenario's delay; tests pass a fake clock. */
  sleep?: Sleep;
  /** Allowed CORS origins; undefined or '*' allows any origin. */
  corsOrigins?: readonly string[];
  /** Where request lines and errors go; undefined is silent. */
  log?: (line: string) => void;
  /** Replaces handlers by operationId (tests use it to force a contract-breaking response). */
  handlers?: Partial<OperationHandlers>;
}

export function createApp(deps: AppDeps): Express {
  const log = deps.log ?? (() => {});
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  // 1. One log line per request.
  if (deps.log) app.use(requestLog(deps.log));
  // 2. CORS, preflights included, before anything can refuse the request.
  app.use(cors(corsOptions(deps.corsOrigins)));
  // 3. The mock's own routes, outside the contract.
  app.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(deps.contract.text);
  });
  app.use('/__admin', adminRouter({ service: deps.service, scenarios: deps.scenarios, reset: deps.reset, version: deps.version, startedAt: new Date() }));
  // 4. Known operation? (404/405) Known API key? (401) Before the body is even parsed (D14).
  app.use(authenticate(new OperationTable(deps.contract.document), deps.service));
  // 5. Which scenario shapes this request (x-mock-scenario, Prefer, global)? Unknown: 400.
  app.use(chooseRequestScenario(deps.scenarios, deps.contractRules));
  // 6. JSON bodies up to 1 MiB, for operations that take one (a body sent with deleteLink is
  //    ignored, never a 400 it cannot document); failures become 400 Error objects.
  const parseJson = express.json({ limit: BODY_LIMIT });
  app.use((req, res, next) => (res.locals['takesBody'] ? parseJson(req, res, next) : next()));
  // 7. The contract: every request and every response validated against openapi.yaml.
  app.use(contractValidator(deps.contract.document));
  // 8. The scenario's delay, forced response or network fault, for valid requests only.
  app.use(applyRequestScenario(deps.scenarios, deps.random, deps.sleep ?? realSleep));
  // 9. The stateful handlers, by operationId.
  app.use(dispatchByOperationId({ ...linkHandlers(deps.service), ...deps.handlers }));
  // 10. Anything not answered by now, then every error, as the spec's Error object.
  app.use((req) => {
    throw errors.pathNotFound(req.method, req.path);
  });
  app.use(createErrorHandler(log));
  return app;
}

function corsOptions(origins: readonly string[] | undefined): cors.CorsOptions {
  const anyOrigin = !origins || origins.length === 0 || origins.includes('*');
  return {
    origin: anyOrigin ? '*' : [...origins],
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: [API_KEY_HEADER, 'content-type', SCENARIO_HEADER, 'prefer'],
    maxAge: 600,
  };
}
