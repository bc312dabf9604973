// createApp(deps) → an Express app. Never listens: the CLI and the tests do that. The order of
// the middleware is the order of precedence, written down once:
//   auth (401) → scenario choice (400) → request validation (400) → scenario → stateful store → error.
import { join } from 'node:path';
import type cors from 'cors';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Awaitable } from '../core/awaitable.js';
import type { LinkService } from '../core/links.js';
import type { StoreHealth } from '../core/link-store.js';
import { errors } from '../core/errors.js';
import type { RandomInt } from '../core/random.js';
import { SCENARIO_HEADER } from '../core/scenario-choice.js';
import type { ScenarioRegistry } from '../core/scenario-registry.js';
import { ADMIN_TOKEN_HEADER } from '../admin/admin-token.js';
import { adminRouter } from '../admin/router.js';
import { browserGuard } from '../admin/browser-guard.js';
import { frameGuard } from '../admin/frame-guard.js';
import type { CoverageTracker } from '../core/coverage.js';
import type { JournalStore } from '../core/traffic-state.js';
import { MemoryViolations, type ViolationStore } from '../core/violations.js';
import { corsFor } from '../http/cors.js';
import { docsRouter } from '../http/docs.js';
import { redirectByHost, redirectRouter } from '../http/redirects.js';
import type { SnapshotStore } from '../core/snapshots.js';
import { authenticate, API_KEY_HEADER, readBodyOfAuthRefusal } from '../http/authenticate.js';
import { BODY_LIMIT, createErrorHandler } from '../http/errors.js';
import type { Contract, OpenApiDocument } from '../core/contract-types.js';
import { OperationTable } from '../http/operation-table.js';
import { dispatchByOperationId, linkHandlers, type OperationHandlers } from '../http/operations.js';
import { jsonBody } from '../http/json-body.js';
import { oneLayer } from '../http/one-layer.js';
import { MAX_JSON_FIELDS } from '../http/json-depth.js';
import { landingRouter } from '../http/landing.js';
import { GatedRoutes } from '../http/gated-routes.js';
import { servedContract } from '../http/served-contract.js';
import { plainRequestTarget } from '../http/request-target.js';
import { captureJsonBodies, notApiTraffic, notApiTrafficAt, recordRequests } from '../http/record-requests.js';
import { applyRequestScenario, chooseRequestScenario, readActiveScenarioEarly, readBodyOfControlRefusal, realSleep, type Sleep } from '../http/scenarios.js';
import { contractValidator } from '../http/validator.js';
import { contractHandlers, GENERATED_HEADER, generatedOperations, sayingGeneratedFields } from '../http/contract-handlers.js';
import { accountToServe } from '../http/account-to-serve.js';
import { generatedAnswers } from '../contract/generated-answers.js';
import { bodyVerdict, readAgainWhenChanged } from '../http/read-again.js';
import type { ContractRules } from '../scenarios/contract-rules.js';
import type { SeedAccount } from '../core/new-account.js';
import type { ServedContract } from '../admin/contract-routes.js';
import type { proxyPipeline, ProxySettings } from '../proxy/pipeline.js';
import { VIOLATIONS_HEADER } from '../proxy/headers.js';
import { chooseVariety, forceNextStatus, VARIETY_HEADER, varyBeforeValidation, varyLate } from '../http/variety.js';
import { contractJudge } from '../http/variety-judge.js';
import { type VarietySwitch, varietySwitchFor } from '../variety/switch.js';

export interface AppDeps {
  service: LinkService;
  /** How the contract is served against the shipped one (GET /__admin/contract; D32). */
  servedContract: ServedContract;
  /** Whether shared data can be reached now (GET /__admin/health answers 503 when not). */
  storeHealth?: () => Promise<StoreHealth>;
  contract: Contract;
  /** What the contract lets each operation answer, for Prefer codes. */
  contractRules: ContractRules;
  scenarios: ScenarioRegistry;
  journal: JournalStore;
  coverage: CoverageTracker;
  /** The drift report's distinct violations (GET /__admin/violations); default: an empty one of its own. */
  violations?: ViolationStore;
  snapshots: SnapshotStore;
  /** The admin API's own document, bundled. */
  adminContract: Contract;
  /** Required by the admin API when set (x-admin-token). */
  adminToken?: string;
  /** The web console's static files, served at /__admin/. */
  consoleDir?: string;
  /** Swagger UI's assets, for /docs. */
  docsAssetsDir?: string;
  reset: () => Promise<void>;
  /** Seeds a new account from its key, as --accept-any-key does (POST /__admin/accounts). */
  seedAccount: SeedAccount;
  /** After a reset or restore: the scenarios' `times` counters start over, unless the store's replace did that already. */
  onStateReplaced: () => Awaitable<void>;
  version: string;
  /** When the mock started (GET /__admin/health's uptime); default: when this app was built. A contract swapped in by --watch keeps it. */
  startedAt?: Date;
  /** Picks delays within a scenario's range. */
  random: RandomInt;
  /** Waits out a scenario's delay; tests pass a fake clock. */
  sleep?: Sleep;
  /** Host names the admin API answers besides loopback ones when there is no admin token. */
  allowedHosts?: readonly string[];
  /** Allowed CORS origins (API routes only); undefined or '*' allows any origin. */
  corsOrigins?: readonly string[];
  /** Where request lines and errors go; undefined is silent. */
  log?: (line: string) => void;
  /** false: request lines are not even built (--quiet; they cost CPU at thousands per second). */
  logRequests?: boolean;
  /** Proxy mode (--proxy): API requests go to this upstream instead of the stateful handlers. */
  proxy?: ProxySettings & { pipeline: typeof proxyPipeline };
  /** Variety mode's settings (src/variety/); default: one of its own, off. */
  variety?: VarietySwitch;
  /** Replaces handlers by operationId (tests use it to force a contract-breaking response). */
  handlers?: Partial<OperationHandlers>;
  /** The MCP server at /__admin/mcp, behind the admin API's guards. */
  mcp?: RequestHandler;
}

export function createApp(deps: AppDeps): Express {
  const log = deps.log ?? (() => {});
  const sleep = deps.sleep ?? realSleep;
  // The contract's operations: matched in mock mode, named by every 404 for a path it lacks.
  const table = new OperationTable(deps.contract.document);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  // 0. The request target in origin-form, with undecodable path segments taken literally.
  // 1. One record per request: log line, journal entry, coverage.
  const requestLog = deps.logRequests === false ? undefined : deps.log;
  //    Variety varies the mock's own answers, not a proxied upstream's.
  const variety = deps.variety ?? varietySwitchFor(deps.contract.document);
  captureJsonBodies(app, deps.proxy ? undefined : varyLate(variety, contractJudge(deps.contract.document), log));
  const recorded = recordRequests({ journal: deps.journal, coverage: deps.coverage, ...(deps.violations ? { violations: deps.violations } : {}), ...(requestLog ? { log: requestLog } : {}) });
  // 2. The admin API, before CORS so that it grants none: no foreign page may read it or change
  //    state through it, and without a token it answers only this machine's host names (D29).
  //    No page may frame any of its answers, the console's included (src/admin/frame-guard.ts).
  const admin = new GatedRoutes().use('/__admin', notApiTraffic, frameGuard, browserGuard(deps), adminRouter(adminDeps(deps, variety)));
  // 3. CORS for everything else, preflights included, before anything can refuse the request.
  const corsAllowed = corsFor(corsOptions(deps.corsOrigins));
  // 4. Short-URL visits (Host: <domain>, or /__r/<domain>/<slug>): a 302 and a click. Not in proxy
  //    mode: the links are the upstream's, so the visit is too.
  const own = new GatedRoutes();
  if (!deps.proxy) own.use('/__r', redirectRouter(deps.service));
  // 5. The mock's own public routes, outside the contract: the contract itself and its docs.
  own.get('/openapi.yaml', notApiTraffic, servedContract(() => deps.contract.text));
  if (deps.docsAssetsDir) own.use('/docs', notApiTraffic, docsRouter(deps.docsAssetsDir));
  //    GET / (a page for browsers, a 404 naming the console and docs for others) and a favicon.
  //    A route, not a router every request passes through.
  own.get(['/', '/favicon.ico'], notApiTrafficAt(['/', '/favicon.ico']), landingRouter(deps.consoleDir && join(deps.consoleDir, 'favicon.ico'), table.operations));
  //    Steps 0–5 are one router layer (src/http/one-layer.ts says why); the routes of steps 2, 4 and
  //    5 sit behind one check of the path each, which API requests do not pass (src/http/gated-routes.ts).
  app.use(oneLayer([plainRequestTarget, recorded, admin.gate(), corsAllowed, ...(deps.proxy ? [] : [redirectByHost(deps.service)]), own.gate()]));
  // 6–11 in proxy mode: every other request goes to the upstream, judged on both sides (src/proxy/pipeline.ts).
  //    The pipeline comes with the settings: createMock loads src/proxy/ only in proxy mode.
  if (deps.proxy) app.use(deps.proxy.pipeline({ ...proxySettings(deps.proxy), document: deps.contract.document, scenarios: deps.scenarios, contractRules: deps.contractRules, random: deps.random, sleep, log }));
  else addMockRoutes(app, deps, table, sleep, variety);
  // 12. Anything not answered by now, then every error, as the spec's Error object.
  app.use((req) => {
    throw errors.pathNotFound(req.method, req.path, table.operations);
  });
  app.use(createErrorHandler(log));
  return app;
}

/**
 * Steps 6–11 of mock mode: the stateful API. A create may be decided on what shared state
 * remembers; the steps that depend on it then run again when that changed meanwhile
 * (src/http/read-again.ts).
 */
function addMockRoutes(app: Express, deps: AppDeps, table: OperationTable, sleep: Sleep, variety: VarietySwitch): void {
  // 6. Known operation? (404/405) Known API key? (401) Before the body is even parsed (D14).
  const mayRecall = (operationId: string): boolean => operationId === 'createLink';
  const authenticated = authenticate(table, deps.service, readActiveScenarioEarly(deps.scenarios, mayRecall));
  // 8. JSON bodies up to 1 MiB, for operations that take one (a body sent with deleteLink is
  //    ignored, never a 400 it cannot document); failures become 400 Error objects.
  //    UTF-8 only, nested at most 64 levels, 1,000 fields at most (src/http/json-body.ts).
  //    The validator caches per content type, parameters included: `application/json; v=<n>`
  //    would grow that cache without bound. The body is parsed by now, so only the media type counts.
  const parseJson = jsonBody(BODY_LIMIT, { maxFields: MAX_JSON_FIELDS });
  const parsed: RequestHandler = (req, res, next) => (res.locals['takesBody'] ? parseJson(req, res, next) : next());
  // 7. Which scenario shapes this request (x-mock-scenario, Prefer, the key's own, global)? Unknown:
  //    the mock's own 400 (verdict 'mock-control'), once the body is read (step 8's parser) for the journal.
  //    Variety too (x-mock-variety, the key's setting, the global one; src/http/variety.ts).
  const chosen = [chooseRequestScenario(deps.scenarios, deps.contractRules), chooseVariety(variety), readBodyOfControlRefusal(parsed)];
  //    A forced 401 stands for a failed authentication, so it comes before validation too. A 401,
  //    real or forced, still reads the body (step 8's parser) for the journal, and is the answer whatever it holds.
  const shapedBeforeValidation = applyRequestScenario(deps.scenarios, deps.random, sleep, 'before-validation', parsed);
  const refusedKey = readBodyOfAuthRefusal(parsed);
  // 9. The contract: every request and every response validated against openapi.yaml. A varied
  //    answer is varied before the response validator's hook judges it (varyBeforeValidation).
  const validated = [...contractValidator(deps.contract.document), varyBeforeValidation];
  // 10. The scenario's delay, forced response or network fault, for valid requests only.
  const shapedAfterValidation = applyRequestScenario(deps.scenarios, deps.random, sleep, 'after-validation');
  // 11. A status only a next contract documents, when its variety dimension is on (forceNextStatus), else
  //     the stateful handlers, by operationId.
  //     With a contract FILE (--contract), also the operations it adds: from the store, or from their schema.
  const added = contractHandlers(deps.contract.document, deps.servedContract, deps.service, generatedAnswers(deps.contract.document, deps.servedContract));
  //     Those that answer Links name the Link fields made from FILE's schema, when FILE adds some.
  //     An unknown key's account (--accept-any-key) is made here, for a request served, never for one refused before.
  const served = [accountToServe(deps.service, generatedOperations(deps.servedContract)), dispatchByOperationId(sayingGeneratedFields({ ...linkHandlers(deps.service), ...added, ...deps.handlers }, deps.servedContract))];
  // One router layer for all of them (src/http/one-layer.ts says why).
  app.use(oneLayer([authenticated, refusedKey, ...chosen, shapedBeforeValidation, bodyVerdict.before, parsed, mediaTypeOnly, ...validated, bodyVerdict.passed, bodyVerdict.refused, shapedAfterValidation, forceNextStatus, ...served]));
  const runAgain = express.Router().use(oneLayer([authenticated, refusedKey, ...chosen, shapedBeforeValidation, bodyVerdict.again, shapedAfterValidation, ...served]));
  app.use(readAgainWhenChanged(runAgain, deps.service));
}

function proxySettings({ upstream, judge, strict }: ProxySettings): ProxySettings {
  return { upstream, judge, strict };
}

function mediaTypeOnly(req: Request, _res: Response, next: NextFunction): void {
  const type = req.headers['content-type'];
  if (type?.includes(';')) req.headers['content-type'] = type.slice(0, type.indexOf(';')).trim();
  next();
}

function adminDeps(deps: AppDeps, variety: VarietySwitch): Parameters<typeof adminRouter>[0] {
  return {
    variety,
    ...(deps.proxy ? { varietyRefused: "variety mode varies the mock's own answers; in proxy mode (--proxy) the answers are the upstream's" } : {}),
    service: deps.service,
    servedContract: deps.servedContract,
    scenarios: deps.scenarios,
    journal: deps.journal,
    coverage: deps.coverage,
    violations: deps.violations ?? new MemoryViolations(),
    snapshots: deps.snapshots,
    adminContract: deps.adminContract,
    ...(deps.adminToken === undefined ? {} : { adminToken: deps.adminToken }),
    ...(deps.consoleDir === undefined ? {} : { consoleDir: deps.consoleDir }),
    ...(deps.mcp === undefined ? {} : { mcp: deps.mcp }),
    reset: deps.reset,
    seedAccount: deps.seedAccount,
    onStateReplaced: deps.onStateReplaced,
    version: deps.version,
    startedAt: deps.startedAt ?? new Date(),
    activeScenario: () => deps.scenarios.activeName(),
    ...(deps.storeHealth ? { storeHealth: deps.storeHealth } : {}),
  };
}

function corsOptions(origins: readonly string[] | undefined): cors.CorsOptions {
  const anyOrigin = !origins || origins.length === 0 || origins.includes('*');
  return {
    origin: anyOrigin ? '*' : [...origins],
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: [API_KEY_HEADER, 'content-type', SCENARIO_HEADER, 'prefer', ADMIN_TOKEN_HEADER, VARIETY_HEADER],
    // A page in a browser may read the proxy's verdict.
    exposedHeaders: [VIOLATIONS_HEADER, GENERATED_HEADER],
    maxAge: 600,
  };
}
