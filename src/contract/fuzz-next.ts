// The property run of a contract FILE (issue 38): seeded fast-check requests, valid and invalid, to
// every operation FILE serves: the three rule-served ones with FILE's new request fields mixed in
// (a value FILE allows, or any JSON), the reads FILE adds (the fuzzer's own link, an id that names
// nothing, another account's key, no key; a list with any limit and cursor), and the other GETs it
// adds. The property: every answer is documented by FILE and valid by it, never a 5xx, and no body
// FILE forbids is accepted (fuzz.ts's judge).
import fc from 'fast-check';
import type { ServedOperation } from '../core/contract-classes.js';
import { listQueryOf, refusalStatusOf } from '../core/list-query.js';
import { jsonBody, type Exchange } from './client.js';
import type { Outcome } from './check-types.js';
import type { CheckContext } from './context.js';
import { fieldCandidates } from './field-values.js';
import { fuzzRequests, OWN_LINK, type FuzzBody } from './fuzz-arbitraries.js';
import { judge, requestLine } from './fuzz.js';
import { goneOperations, type NextContract } from './next-contract.js';

/** createLink, updateLink, deleteLink: the operations fuzz-arbitraries.ts sends. */
const RULED_OPERATIONS = 3;

interface NextRequest {
  operationId: string;
  method: string;
  path: string;
  body?: FuzzBody;
  /** 'own': the target's key; 'other': the second account's; 'none': no key. */
  key: 'own' | 'other' | 'none';
}

class Violation extends Error {
  constructor(
    readonly problems: string[],
    readonly exchange: Exchange,
  ) {
    super(problems.join('; '));
  }
}

export async function fuzzNextContract(ctx: CheckContext, next: NextContract, options: { runs: number; seed: number; timeLimitMs: number }): Promise<Outcome> {
  const own = await ctx.client.send({ method: 'POST', path: '/links', apiKey: ctx.target.apiKey, json: ctx.linkBody('fuzz-next-own') });
  const ownId = (jsonBody(own) as { id?: unknown } | undefined)?.id;
  const linkId = typeof ownId === 'string' ? ownId : `x${ctx.runId}-own-link-not-created`;
  const sent = new Map<string, number>();
  const gone = new Set(goneOperations(next).map((operation) => operation.operationId));
  const keys = { own: ctx.target.apiKey, other: ctx.target.otherApiKey, none: undefined };
  const requests = nextRequests(ctx, next);
  // A FILE may remove the three operations and add none the run can send (a contract of no paths): nothing to judge.
  if (requests === undefined) return { status: 'not-checked', reason: 'FILE removes createLink, updateLink and deleteLink and adds no operation the property run can send', skipped: true };
  const property = fc.asyncProperty(requests, async (request) => {
    const body = request.body === undefined ? {} : 'raw' in request.body ? { rawBody: request.body.raw } : { json: request.body.json };
    const path = request.path.replace(OWN_LINK, encodeURIComponent(linkId));
    const exchange = await ctx.client.send({ method: request.method, path, apiKey: keys[request.key], ...body });
    sent.set(request.operationId, (sent.get(request.operationId) ?? 0) + 1);
    const problems = judge(ctx, request, exchange);
    // A created link is deleted at once: every run, and every shrinking step, starts from the same state.
    const createdId = request.operationId === 'createLink' && exchange.status >= 200 && exchange.status <= 299 ? (jsonBody(exchange) as { id?: unknown } | undefined)?.id : undefined;
    if (typeof createdId === 'string' && !gone.has('deleteLink')) await ctx.client.send({ method: 'DELETE', path: `/links/${encodeURIComponent(createdId)}`, apiKey: ctx.target.apiKey });
    if (problems.length > 0) throw new Violation(problems, exchange);
  });
  const details = await fc.check(property, { numRuns: options.runs, seed: options.seed, plugins: [fc.interruptAfterTimeLimit(options.timeLimitMs)] });
  const counts = [...sent].map(([operationId, count]) => `${operationId} ${count}`).join(', ');
  if (details.failed && details.errorInstance instanceof Violation) {
    const { problems, exchange } = details.errorInstance;
    const replay = `found after ${details.numRuns} of ${options.runs} runs, shrunk ${details.numShrinks} times; replay with --seed ${details.seed} --fuzz-runs ${options.runs}`;
    return { status: 'failed', reason: `${requestLine(exchange)} answered against --contract ${next.file}: ${problems.join('; ')} (${replay})`, exchange };
  }
  if (details.failed) return { status: 'failed', reason: `the fuzz run itself failed: ${String((details.errorInstance as Error | null)?.message ?? 'interrupted')}` };
  const stopped = details.interrupted ? `; stopped after ${details.numRuns} of ${options.runs} runs at the time limit` : '';
  return { status: 'passed', note: `${details.numRuns} runs (${counts}), seed ${options.seed}: every answer documented and valid by FILE${stopped}` };
}

/**
 * Requests to every operation FILE serves; the shipped three through fuzz-arbitraries.ts, with FILE's
 * new request fields mixed in. Undefined when FILE serves none of them.
 */
function nextRequests(ctx: CheckContext, next: NextContract): fc.Arbitrary<NextRequest> | undefined {
  const gone = new Set(goneOperations(next).map((operation) => operation.operationId));
  const key = fc.constantFrom<NextRequest['key']>('own', 'own', 'own', ...(ctx.target.otherApiKey ? (['other'] as const) : []), 'none');
  const ruled = gone.size < RULED_OPERATIONS ? ruledRequests(ctx, next, gone) : undefined;
  const added = next.classes.operations.filter((operation) => operation.served === 'store' || (operation.served === 'generated' && !operation.path.includes('{')));
  const reads = added.map((operation) => ({ weight: 1, arbitrary: readRequests(ctx, next, operation, key) }));
  const choices = ruled ? [{ weight: 2, arbitrary: ruled }, ...reads] : reads;
  return choices.length === 0 ? undefined : fc.oneof(...choices);
}

/** The shipped three (those FILE keeps), with FILE's new request fields mixed in. */
function ruledRequests(ctx: CheckContext, next: NextContract, gone: ReadonlySet<string>): fc.Arbitrary<NextRequest> {
  return fc.tuple(fuzzRequests(ctx.target.domain, ctx.runId, gone), newFields(ctx, next, 'createLink'), newFields(ctx, next, 'updateLink')).map(([request, created, updated]): NextRequest => {
    const extra = request.operationId === 'createLink' ? created : request.operationId === 'updateLink' ? updated : {};
    const body = 'body' in request ? withFields(request.body, extra) : undefined;
    const id = 'id' in request ? (request.id === OWN_LINK ? OWN_LINK : encodeURIComponent(request.id)) : undefined;
    const method = { createLink: 'POST', updateLink: 'PUT', deleteLink: 'DELETE' }[request.operationId];
    return { operationId: request.operationId, method, path: id === undefined ? '/links' : `/links/${id}`, key: 'own', ...(body ? { body } : {}) };
  });
}

/** FILE's new request fields of an operation: each left out, given a value FILE allows, or any JSON. */
function newFields(ctx: CheckContext, next: NextContract, operationId: string): fc.Arbitrary<Record<string, unknown>> {
  const names = next.classes.fields.filter((field) => field.of === operationId && (field.served === 'request' || field.served === 'ignored')).map((field) => field.name);
  const entries = names.map((name) => {
    const candidates = fieldCandidates(next.document, operationId, name);
    const value = fc.oneof(...(candidates.length > 0 ? [fc.constantFrom(...candidates)] : []), fc.jsonValue({ maxDepth: 1 }));
    return fc.option(value, { nil: undefined }).map((chosen) => [name, chosen] as const);
  });
  return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.filter(([, value]) => value !== undefined)));
}

function withFields(body: FuzzBody, extra: Record<string, unknown>): FuzzBody {
  if ('raw' in body || typeof body.json !== 'object' || body.json === null || Array.isArray(body.json) || Object.keys(extra).length === 0) return body;
  return { json: { ...(body.json as Record<string, unknown>), ...extra } };
}

function readRequests(ctx: CheckContext, next: NextContract, operation: ServedOperation, key: fc.Arbitrary<NextRequest['key']>): fc.Arbitrary<NextRequest> {
  const base = { operationId: operation.operationId, method: operation.method };
  if (operation.read === 'one') {
    const id = fc.oneof(fc.constant(OWN_LINK), fc.stringMatching(/^[A-Za-z0-9_.~-]{0,12}$/).map((rest) => encodeURIComponent(`x${ctx.runId}${rest}`)));
    return fc.tuple(id, key).map(([linkId, who]) => ({ ...base, path: operation.path.replace(/\{[^}/]+\}/, linkId), key: who }));
  }
  if (operation.read !== 'list') return key.map((who) => ({ ...base, path: operation.path, key: who }));
  const query = listQueryOf(next.document, operation);
  // Out-of-range limits only where FILE documents a status to refuse them (else no answer could be right).
  const slack = refusalStatusOf(next.document, operation) === undefined ? 0 : 2;
  const lowest = (query.limit?.minimum ?? (slack ? 0 : 1)) - slack;
  const limit = query.limit ? fc.option(fc.integer({ min: lowest, max: (query.limit.maximum ?? 100) + slack }).map((value) => [query.limit!.name, String(value)] as const), { nil: undefined }) : fc.constant(undefined);
  const cursor = query.cursor ? fc.option(fc.string({ maxLength: 12 }).map((value) => [query.cursor!, value] as const), { nil: undefined }) : fc.constant(undefined);
  return fc.tuple(limit, cursor, key).map(([bound, start, who]) => {
    const params = ([bound, start].filter((pair) => pair !== undefined) as [string, string][]).map(([name, value]) => `${strictlyEncoded(name)}=${strictlyEncoded(value)}`).join('&');
    return { ...base, path: params ? `${operation.path}?${params}` : operation.path, key: who };
  });
}

/**
 * Every character but RFC 3986's unreserved ones percent-encoded: the validator refuses a raw
 * reserved character in a query value ('+', '!', ...), which encodeURIComponent leaves some of.
 */
function strictlyEncoded(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
