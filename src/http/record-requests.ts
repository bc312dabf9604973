// Every answered request is recorded once, when its response closes (once it is sent, or when its
// connection closes first, for network faults): a log line (method, path, status, ms, the scenario that shaped it), a
// journal entry, and the coverage of the key's client.
import type { Express, Request, RequestHandler, Response } from 'express';
import type { CoverageTracker } from '../core/coverage.js';
import { capBody, clientHeaders, maskApiKey, type NewJournalEntry, type UpstreamOutcome, type Verdict, type Violation } from '../core/journal.js';
import type { AccountRecord } from '../core/model.js';
import { maskQueryValues, printable } from '../core/printable.js';
import { isoTime } from '../core/iso-time.js';
import type { ViolationStore } from '../core/violations.js';
import type { JournalStore } from '../core/traffic-state.js';
import { API_KEY_HEADER } from './authenticate.js';
import { directJson } from './json-answer.js';
import { forgetJsonText } from './json-text.js';
import { parsedBodyBytes } from './json-body.js';
import { CHOSEN_VARIETY, type ChosenVariety } from './variety.js';
import { GENERATED_LOCAL } from './contract-handlers.js';

export interface Recorders {
  /** Both take a record without waiting (a shared store sends it in the background). */
  journal: JournalStore;
  coverage: CoverageTracker;
  /** The drift report's aggregate: takes the proxy's violations, without waiting either. */
  violations?: ViolationStore;
  log?: (line: string) => void;
}

export function recordRequests(recorders: Recorders): RequestHandler {
  return (req, res, next) => {
    // performance.now(): the same monotonic clock as hrtime, without a BigInt made at each end.
    const started = performance.now();
    let recorded = false;
    const record = (): void => {
      if (recorded) return;
      recorded = true;
      // This runs in a 'close' listener, where a throw would end the process: whatever a
      // client sent, recording it must never take the server down.
      try {
        recordOne(recorders, req, res, performance.now() - started);
      } catch (error) {
        recorders.log?.(printable(`INTERNAL ERROR recording ${req.method} ${req.originalUrl}: ${(error as Error).message}`));
      }
    };
    // 'close' alone: Node emits it on every response, a tick after 'finish' when the answer was
    // sent, or when the connection closed before (a network fault). A 'finish' listener of ours
    // made Node's own one (resOnFinish) an array, cloned again at each emit (bench/create-cost.md).
    res.on('close', record);
    next();
  };
}

/**
 * Marks a request as the mock's own (admin API, console, docs, the contract file): it is logged
 * but kept out of the journal and coverage. Set by the routes themselves, so that whatever
 * spelling of the path Express matched (it matches /__ADMIN as /__admin), the journal agrees.
 */
export const notApiTraffic: RequestHandler = (_req, res, next) => {
  res.locals[OWN_ROUTE] = true;
  next();
};

/** The same for GET requests of these exact paths (the landing page and the favicon). */
export function notApiTrafficAt(paths: readonly string[]): RequestHandler {
  const own = new Set(paths);
  return (req, res, next) => {
    if (req.method === 'GET' && own.has(req.path)) res.locals[OWN_ROUTE] = true;
    next();
  };
}

const OWN_ROUTE = 'mockOwnRoute';

/** The key as sent (Node gives header names in lower case; req.get would lower-case the name again). */
const apiKeyOf = (req: Request): string | undefined => req.headers[API_KEY_HEADER] as string | undefined;

/** A CORS preflight is the browser asking, not the client calling: it stays out of the journal. */
const isPreflight = (req: Request): boolean => req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;

function recordOne(recorders: Recorders, req: Request, res: Response, elapsedMs: number): void {
  const durationMs = Math.round(elapsedMs * 100) / 100;
  const status = res.headersSent ? res.statusCode : null;
  recorders.log?.(logLine(req, res, status, durationMs));
  if (res.locals[OWN_ROUTE] === true || isPreflight(req)) return;
  const entry = journalEntry(req, res, status, durationMs);
  recorders.journal.add(entry);
  // The drift report keeps an example exchange for everyone to read: no query value, any may be a credential.
  if (entry.violations?.length) recorders.violations?.record({ ...entry, path: maskQueryValues(entry.path), ...upstreamEvidence(entry.upstream) });
  // A refusal of the mock's own controls is no outcome of the API: the client met the mock there.
  if (entry.operationId && status !== null && entry.verdict !== 'mock-control') {
    const code = (res.locals['responseBody'] as { code?: string } | undefined)?.code ?? null;
    recorders.coverage.record(apiKeyOf(req) ?? null, coverageAccount(entry), { operationId: entry.operationId, status, code });
  }
}

/**
 * When the proxy answered in the upstream's place (--proxy-strict's 502), the drift report's example
 * is the upstream's answer, status and body: that is what broke the contract, not the 502.
 */
function upstreamEvidence(upstream: UpstreamOutcome | undefined): Pick<NewJournalEntry, 'status' | 'responseBody'> | undefined {
  return upstream && 'body' in upstream ? { status: upstream.status, responseBody: upstream.body } : undefined;
}

/** Proxy mode: accounts are the upstream's, unknown here; a key the upstream did not refuse is counted as a key of its own. */
export const UPSTREAM_ACCOUNT = '(upstream)';

function coverageAccount(entry: NewJournalEntry): string | null {
  if (entry.accountId !== null || !entry.upstream) return entry.accountId;
  return entry.upstream.status !== null && entry.upstream.status !== 401 ? UPSTREAM_ACCOUNT : null;
}

/** The app's res.json under variety (varyLate in src/http/variety.ts). */
export type LateVariety = (res: Response, body: unknown, json: (this: Response, body: unknown) => Response) => Response;

/**
 * Every JSON answer of the app keeps its body (before serialisation) for the journal. Set once on
 * the app's response prototype rather than wrapped per response: a bound function and a closure
 * per request were 1.2 µs of a create. Call it once per app, before it serves.
 */
export function captureJsonBodies(app: Express, variety?: LateVariety): void {
  const response = app.response as Response;
  const json = directJson(response.json);
  response.json = function capturingJson(this: Response, body: unknown) {
    // Variety (src/http/variety.ts): one check on a success, since it was chosen before; an
    // error may have come before the choice, so it asks.
    // Variety may change the body: it is serialised again, not sent as the text judged (json-text.ts).
    if (variety && (this.locals[CHOSEN_VARIETY] !== undefined || this.statusCode >= 400)) {
      forgetJsonText(body);
      return variety(this, body, json);
    }
    this.locals['responseBody'] = body;
    return json.call(this, body);
  };
}

function logLine(req: Request, res: Response, status: number | null, durationMs: number): string {
  const fault = res.locals['fault'] as string | undefined;
  const shown = status ?? (fault ? `fault:${fault}` : 'closed-before-answer');
  const scenario = res.locals['shapedBy'] as string | undefined;
  return `${req.method} ${printable(req.originalUrl)} ${shown} ${durationMs.toFixed(1)}ms${scenario ? ` scenario=${scenario}` : ''}`;
}

function journalEntry(req: Request, res: Response, status: number | null, durationMs: number): NewJournalEntry {
  const key = apiKeyOf(req);
  const fault = (res.locals['fault'] as string | undefined) ?? null;
  const entry: NewJournalEntry = {
    time: isoTime(new Date()),
    method: req.method,
    path: req.originalUrl,
    operationId: (res.locals['operationId'] as string | undefined) ?? null,
    apiKey: key ? maskApiKey(key) : null,
    accountId: (res.locals['account'] as AccountRecord | undefined)?.id ?? null,
    status,
    durationMs,
    scenario: (res.locals['shapedBy'] as string | undefined) ?? null,
    fault,
    verdict: fault ? 'fault' : ((res.locals['verdict'] as Verdict | undefined) ?? 'ok'),
    requestBody: capBody(req.body, parsedBodyBytes(res)),
    responseBody: capBody(res.locals['responseBody'], contentLength(res.getHeader('content-length'))),
    variety: answerVariety(res.locals[CHOSEN_VARIETY] as ChosenVariety | null | undefined),
  };
  const headers = clientHeaders(req.headers);
  if (headers) entry.headers = headers;
  addProxied(entry, res);
  // An answer made from a contract FILE's schema (src/http/contract-handlers.ts) says so here too.
  const generated = res.locals[GENERATED_LOCAL] as string | readonly string[] | undefined;
  if (typeof generated === 'string') entry.generated = generated;
  else if (generated !== undefined) entry.generatedFields = [...generated];
  return entry;
}

/** null without variety: no object for a normal request. */
const answerVariety = (chosen: ChosenVariety | null | undefined): NewJournalEntry['variety'] => (chosen ? { seed: chosen.seed, dimensions: chosen.used } : null);

function contentLength(header: string | number | string[] | undefined): number | undefined {
  const bytes = Number(header);
  return header === undefined || Array.isArray(header) || !Number.isFinite(bytes) ? undefined : bytes;
}

/**
 * The proxy's verdicts (src/proxy/), on its exchanges only: a mock's own answers carry none. Set
 * on the entry only when present (no object spreads: this runs for every request).
 */
function addProxied(entry: NewJournalEntry, res: Response): void {
  const violations = res.locals[VIOLATIONS] as Violation[] | undefined;
  const notKept = res.locals[VIOLATIONS_NOT_KEPT] as number | undefined;
  const upstream = res.locals[UPSTREAM] as UpstreamOutcome | undefined;
  if (violations) entry.violations = violations;
  if (notKept) entry.violationsNotKept = notKept;
  if (upstream) entry.upstream = upstream;
}

/** Where the proxy leaves its findings for the recorder (res.locals keys): the violations kept, and how many more there were. */
export const VIOLATIONS = 'violations';
export const VIOLATIONS_NOT_KEPT = 'violationsNotKept';
export const UPSTREAM = 'upstream';
