// Property-based fuzzing from the request schemas: a bounded, seeded number of requests, valid and
// invalid. The property: every answer is documented for the operation and matches its schema
// (never a 5xx), and a body that openapi.yaml forbids is never accepted. fast-check shrinks a
// failure to a small request, which is reported as a curl command with the answer it got. After
// the run, the server must still answer a plain request.
import fc from 'fast-check';
import { jsonBody, type Exchange } from './client.js';
import type { Outcome } from './check-types.js';
import type { CheckContext } from './context.js';
import { goneOperations } from './next-contract.js';
import { fuzzRequests, OWN_LINK, type FuzzBody, type FuzzRequest } from './fuzz-arbitraries.js';

export const DEFAULT_FUZZ_RUNS = 200;
/** The whole fuzz run, shrinking included, stops after this; what ran until then still counts. */
export const DEFAULT_FUZZ_TIME_LIMIT_MS = 120_000;

export interface FuzzOptions {
  runs: number;
  seed: number;
  timeLimitMs?: number;
}

export interface FuzzOutcomes {
  property: Outcome;
  stillAnswers: Outcome;
}

class FuzzViolation extends Error {
  constructor(
    readonly problems: string[],
    readonly exchange: Exchange,
  ) {
    super(problems.join('; '));
  }
}

export async function fuzzContract(ctx: CheckContext, options: FuzzOptions): Promise<FuzzOutcomes> {
  // The fuzzer's own link, for updates of a link that exists; deleted at the end (that delete is
  // also the "does it still answer" request).
  const own = await ctx.client.send({ method: 'POST', path: '/links', apiKey: ctx.target.apiKey, json: ctx.linkBody('fuzz-own') });
  const ownId = (jsonBody(own) as { id?: unknown } | undefined)?.id;
  const linkId = typeof ownId === 'string' ? ownId : `x${ctx.runId}-own-link-not-created`;
  const sent = { createLink: 0, updateLink: 0, deleteLink: 0 };
  const gone = new Set(goneOperations(ctx.next).map((operation) => operation.operationId));
  if (Object.keys(sent).every((operationId) => gone.has(operationId))) {
    const skipped: Outcome = { status: 'not-checked', skipped: true, reason: `skipped: --contract ${ctx.next!.file} removes createLink, updateLink and deleteLink, the operations fuzzed` };
    return { property: skipped, stillAnswers: skipped };
  }

  const property = fc.asyncProperty(fuzzRequests(ctx.target.domain, ctx.runId, gone), async (request) => {
    const exchange = await send(ctx, request, linkId);
    sent[request.operationId] += 1;
    const problems = judge(ctx, request, exchange);
    // Delete a created link at once: every run, and every shrinking step, starts from the same state.
    const createdId = request.operationId === 'createLink' && exchange.status >= 200 && exchange.status <= 299 ? (jsonBody(exchange) as { id?: unknown } | undefined)?.id : undefined;
    if (typeof createdId === 'string' && !gone.has('deleteLink')) await ctx.client.send({ method: 'DELETE', path: `/links/${encodeURIComponent(createdId)}`, apiKey: ctx.target.apiKey });
    if (problems.length > 0) throw new FuzzViolation(problems, exchange);
  });
  const details = await fc.check(property, {
    numRuns: options.runs,
    seed: options.seed,
    plugins: [fc.interruptAfterTimeLimit(options.timeLimitMs ?? DEFAULT_FUZZ_TIME_LIMIT_MS)],
  });

  const total = sent.createLink + sent.updateLink + sent.deleteLink;
  const summary = `${total} requests (createLink ${sent.createLink}, updateLink ${sent.updateLink}, deleteLink ${sent.deleteLink}), seed ${options.seed}`;
  let propertyOutcome: Outcome;
  if (details.failed && details.errorInstance instanceof FuzzViolation) {
    const { problems, exchange } = details.errorInstance;
    propertyOutcome = {
      status: 'failed',
      reason:
        `${requestLine(exchange)} answered against the contract: ${problems.join('; ')} ` +
        `(found after ${details.numRuns} of ${options.runs} runs, shrunk ${details.numShrinks} times; replay with --seed ${details.seed} --fuzz-runs ${options.runs})`,
      exchange,
    };
  } else if (details.failed) {
    propertyOutcome = { status: 'failed', reason: `the fuzz run itself failed: ${String((details.errorInstance as Error | null)?.message ?? 'interrupted')}` };
  } else {
    const stopped = details.interrupted ? `; stopped after ${details.numRuns} of ${options.runs} runs at the time limit` : '';
    propertyOutcome = { status: 'passed', note: `${summary}: every answer documented, schema-valid, no 5xx, no forbidden body accepted${stopped}` };
  }
  return { property: propertyOutcome, stillAnswers: await stillAnswers(ctx, linkId, typeof ownId === 'string', gone) };
}

async function send(ctx: CheckContext, request: FuzzRequest, ownId: string): Promise<Exchange> {
  const id = 'id' in request ? (request.id === OWN_LINK ? ownId : request.id) : undefined;
  const path = id === undefined ? '/links' : `/links/${encodeURIComponent(id)}`;
  const method = { createLink: 'POST', updateLink: 'PUT', deleteLink: 'DELETE' }[request.operationId];
  const body = 'body' in request ? ('raw' in request.body ? { rawBody: request.body.raw } : { json: request.body.json }) : {};
  return ctx.client.send({ method, path, apiKey: ctx.target.apiKey, ...body });
}

/** The property's problems with one answer: none when it is documented, valid, no 5xx, and no forbidden body was accepted. */
export function judge(ctx: CheckContext, request: { operationId: string; body?: FuzzBody }, exchange: Exchange): string[] {
  if (exchange.networkError) return [exchange.networkError];
  const problems: string[] = [];
  if (exchange.status >= 500) problems.push(`a server error (${exchange.status})`);
  problems.push(...ctx.checker.checkResponse(request.operationId, exchange.status, exchange.contentType, exchange.bodyText));
  if (request.body !== undefined && exchange.status >= 200 && exchange.status <= 299) {
    const sent = 'raw' in request.body ? parseOrInvalid(request.body.raw) : request.body.json;
    const forbidden = sent === INVALID ? ['the body is not JSON'] : ctx.checker.requestBodyProblems(request.operationId, sent);
    if (forbidden.length > 0) problems.push(`accepted a body that openapi.yaml forbids (${forbidden.slice(0, 3).join('; ')})`);
  }
  return problems;
}

async function stillAnswers(ctx: CheckContext, linkId: string, created: boolean, gone: ReadonlySet<string>): Promise<Outcome> {
  if (gone.has('deleteLink')) return stillUpdates(ctx, linkId, created, gone);
  const exchange = await ctx.client.send({ method: 'DELETE', path: `/links/${encodeURIComponent(linkId)}`, apiKey: ctx.target.apiKey });
  if (exchange.networkError) return { status: 'failed', reason: `the server no longer answers after fuzzing: ${exchange.networkError}`, exchange };
  const expected = created ? 204 : 404;
  const problems = ctx.checker.checkResponse('deleteLink', exchange.status, exchange.contentType, exchange.bodyText);
  if (exchange.status !== expected) problems.unshift(`expected ${expected}, got ${exchange.status}`);
  if (problems.length > 0) return { status: 'failed', reason: `after fuzzing, deleting the fuzzer's own link: ${problems.join('; ')}`, exchange };
  return { status: 'passed', note: `the server still answers: DELETE of the fuzzer's own link → ${exchange.status}` };
}

/** FILE removes deleteLink: the server must still answer an update of the fuzzer's own link (which stays). */
async function stillUpdates(ctx: CheckContext, linkId: string, created: boolean, gone: ReadonlySet<string>): Promise<Outcome> {
  if (gone.has('updateLink')) return { status: 'not-checked', skipped: true, reason: `skipped: --contract ${ctx.next!.file} removes deleteLink and updateLink, the requests this check sends` };
  const exchange = await ctx.client.send({ method: 'PUT', path: `/links/${encodeURIComponent(linkId)}`, apiKey: ctx.target.apiKey, json: { tags: [] } });
  if (exchange.networkError) return { status: 'failed', reason: `the server no longer answers after fuzzing: ${exchange.networkError}`, exchange };
  const expected = created ? 200 : 404;
  const problems = ctx.checker.checkResponse('updateLink', exchange.status, exchange.contentType, exchange.bodyText);
  if (exchange.status !== expected) problems.unshift(`expected ${expected}, got ${exchange.status}`);
  if (problems.length > 0) return { status: 'failed', reason: `after fuzzing, updating the fuzzer's own link: ${problems.join('; ')}`, exchange };
  return { status: 'passed', note: `the server still answers: PUT of the fuzzer's own link → ${exchange.status} (FILE removes deleteLink)` };
}

const INVALID = Symbol('not JSON');
function parseOrInvalid(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return INVALID;
  }
}

/** The request on one line, e.g. `POST /links {"tags":[]}`; the report adds the full curl command. */
export function requestLine(exchange: Exchange): string {
  const body = exchange.requestBody;
  if (body === undefined) return `${exchange.method} ${exchange.path}`;
  if (body === '') return `${exchange.method} ${exchange.path} with an empty body`;
  return `${exchange.method} ${exchange.path} ${body.length > 200 ? `${body.slice(0, 200)}...` : body}`;
}
