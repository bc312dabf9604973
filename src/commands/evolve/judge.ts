// One recorded exchange judged against NEXT, beside --from: what NEXT would do differently.
//  - breaking: NEXT refuses the request as sent (its operation or method gone, a security header it
//    lacks, a path parameter or body field now invalid), or the recorded status is no longer
//    documented for it;
//  - changed: the request passes, but the answer got is no longer what NEXT allows (a field now
//    invalid or newly required), or a field it got may now be left out (no longer required).
// Only what is new in NEXT counts: a problem the exchange had under --from too (a QA script's
// deliberately bad request, a 404 of an unknown path) is no change.
import type { ErrorObject } from 'ajv';
import type { OperationMatch } from '../../http/operation-table.js';
import type { ContractView } from './contract-view.js';
import type { OperationView } from './operation-view.js';
import type { Exchange } from './exchanges.js';
import { removalProbes, type ProbeCache } from './removal-probes.js';

export type Kind = 'breaking' | 'changed';

export interface Finding {
  kind: Kind;
  operationId: string;
  method: string;
  /** The path template (NEXT's; --from's when NEXT lacks the operation). */
  path: string;
  /** JSON pointer into the request or answer body ('' for the request or operation as a whole). */
  pointer: string;
  reason: string;
}

export class Judge {
  private readonly probeCache: ProbeCache = new Map();
  private readonly requestPlans = new WeakMap<OperationView, WeakMap<OperationView, RequestPlan>>();
  /** sameAs's answers, by NEXT's node (request body, response) and --from's: each pair compared once, not per exchange. */
  private readonly sameCache = new WeakMap<object, WeakMap<object, boolean>>();

  /** Both contracts route alike: NEXT's match of an exchange is --from's (one match per exchange, not two). */
  private readonly sameRoutes: boolean;

  constructor(
    readonly from: ContractView,
    readonly next: ContractView,
  ) {
    this.sameRoutes = from.routes === next.routes;
  }

  /** The --from operation the exchange called, if any. */
  operationOf(exchange: Exchange): string | undefined {
    const match = this.from.table.match(exchange.method, exchange.path.split('?')[0] ?? '');
    return match.kind === 'operation' ? match.operationId : undefined;
  }

  judge(exchange: Exchange): Finding[] {
    return this.judged(exchange).findings;
  }

  /** The --from operation the exchange called (operationOf) and its findings, its path matched once. */
  judged(exchange: Exchange): { operationId: string | undefined; findings: Finding[] } {
    const query = exchange.path.indexOf('?');
    const path = query < 0 ? exchange.path : exchange.path.slice(0, query);
    const before = this.from.table.match(exchange.method, path);
    // Not an operation of --from either (a 404 or 405 the consumer already got): nothing moved.
    if (before.kind !== 'operation') return { operationId: undefined, findings: NONE };
    return { operationId: before.operationId, findings: this.findings(exchange, path, before) };
  }

  private findings(exchange: Exchange, path: string, before: OperationMatch & { kind: 'operation' }): Finding[] {
    const fromId = before.operationId;
    const after = this.sameRoutes ? before : this.next.table.match(exchange.method, path);
    const was = this.from.operation(fromId);
    const { method, status } = exchange;
    if (after.kind === 'unknown-path') return [finding('breaking', fromId, method, was?.path ?? path, '', `operation removed: NEXT has no path for ${method} ${path} (404)`)];
    if (after.kind === 'method-not-allowed') return [finding('breaking', fromId, method, was?.path ?? path, '', `operation removed: NEXT has no ${method} for this path (405; it has ${after.allowed.join(', ') || 'none'})`)];
    const operation = this.next.operation(after.operationId);
    if (!operation || !was) return NONE;
    const breaking = this.requestProblems(exchange, after.operationId, fromId, path).map((problem) => finding('breaking', after.operationId, method, operation.path, problem.pointer, problem.reason));
    const documented = operation.statuses.includes(status);
    if (!documented && was.statuses.includes(status)) {
      breaking.push(finding('breaking', after.operationId, method, operation.path, '', `status ${status} is no longer documented (NEXT documents ${operation.statuses.join(', ')})`));
    }
    if (breaking.length > 0 || !documented) return breaking;
    const changed = this.answerProblems(exchange, after.operationId, fromId);
    return changed.length === 0 ? NONE : changed.map((problem) => finding('changed', after.operationId, method, operation.path, problem.pointer, problem.reason));
  }

  private requestProblems(exchange: Exchange, nextId: string, fromId: string, path: string): Problem[] {
    const next = this.next.operation(nextId);
    const from = this.from.operation(fromId);
    if (!next || !from) return [];
    const problems: Problem[] = [];
    // Only a request that kept --from's security (every header it asked for; any request when it asked none) is newly refused.
    if (next.securityHeaders.length > 0 && from.securityHeaders.every((header) => exchange.headers[header] !== undefined)) {
      for (const header of next.securityHeaders) {
        if (exchange.headers[header] === undefined) problems.push({ pointer: '', reason: `security: NEXT requires the ${header} header, which the request did not send (401)` });
      }
    }
    const { changed, sameBody } = this.requestPlan(next, from);
    const values = changed.length ? this.next.pathValues(next.path, path) : {};
    for (const parameter of changed) {
      const errors = parameter.validate(values[parameter.name] ?? '');
      const before = errors.length ? from.pathParameters.find((candidate) => candidate.name === parameter.name) : undefined;
      const old = before?.validate(this.from.pathValues(from.path, path)[parameter.name] ?? '') ?? [];
      problems.push(...newErrors(errors, old).map((error) => ({ pointer: '', reason: `path parameter ${parameter.name} ${describe(error)}` })));
    }
    if (sameBody) return problems;
    if (exchange.requestBody === undefined) {
      if (next.bodyRequired && !from.bodyRequired) problems.push({ pointer: '', reason: 'the request body is now required' });
      return problems;
    }
    const sent = (exchange.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
    if (next.requestMediaTypes.length && !next.requestMediaTypes.includes(sent) && from.requestMediaTypes.includes(sent)) {
      problems.push({ pointer: '', reason: `content type ${sent} is no longer accepted (NEXT takes ${next.requestMediaTypes.join(', ')}; 400)` });
      return problems;
    }
    const errors = this.next.checker.requestBodyErrors(nextId, exchange.requestBody);
    if (errors.length === 0) return problems;
    // --from is asked only when NEXT finds something: most exchanges keep both, at half the cost.
    for (const error of newErrors(errors, this.from.checker.requestBodyErrors(fromId, exchange.requestBody))) problems.push({ pointer: pointerOf(error), reason: `request body ${describe(error)}` });
    return problems;
  }

  /**
   * What of a request of `next` (as `from` was) can change, worked out once per pair of operations:
   * the path parameters whose template or schema differ (a parameter the same in both cannot be
   * newly invalid), and whether the request body is the same in both (required, media types,
   * schemas: then nothing in it can be new).
   */
  private requestPlan(next: OperationView, from: OperationView): RequestPlan {
    let byFrom = this.requestPlans.get(next);
    if (!byFrom) this.requestPlans.set(next, (byFrom = new WeakMap()));
    let plan = byFrom.get(from);
    if (!plan) {
      const changed = next.pathParameters.filter((parameter) => next.path !== from.path || !this.sameParameter(parameter, from.pathParameters));
      byFrom.set(from, (plan = { changed, sameBody: this.same(next.requestBodyNode, from.requestBodyNode) }));
    }
    return plan;
  }

  /** Whether NEXT's `node` and --from's `other` say the same (ContractView.sameAs), asked once per pair of objects. */
  private same(node: unknown, other: unknown): boolean {
    if (typeof node !== 'object' || node === null || typeof other !== 'object' || other === null) return this.next.sameAs(node, this.from, other);
    let byOther = this.sameCache.get(node);
    if (!byOther) this.sameCache.set(node, (byOther = new WeakMap()));
    let same = byOther.get(other);
    if (same === undefined) byOther.set(other, (same = this.next.sameAs(node, this.from, other)));
    return same;
  }

  private sameParameter(parameter: OperationView['pathParameters'][number], before: OperationView['pathParameters']): boolean {
    const was = before.find((candidate) => candidate.name === parameter.name);
    return was !== undefined && this.next.sameAs(parameter.schema, this.from, was.schema);
  }

  private answerProblems(exchange: Exchange, nextId: string, fromId: string): Problem[] {
    const { status, responseBody } = exchange;
    // The same answer documented in both for this status: it cannot have changed (nor be probed).
    const written = String(status);
    if (this.same(this.next.operation(nextId)?.responseNodes[written], this.from.operation(fromId)?.responseNodes[written])) return [];
    const documents = this.next.checker.documentsBody(nextId, status);
    if (!documents) return responseBody === undefined || this.from.checker.documentsBody(fromId, status) === false ? [] : [{ pointer: '', reason: `NEXT documents no body for status ${status}, and the answer had one` }];
    if (responseBody === undefined) return this.from.checker.documentsBody(fromId, status) ? [] : [{ pointer: '', reason: `NEXT documents a body for status ${status}, and the answer had none` }];
    const fromErrors = (): ErrorObject[] => (this.from.checker.documentsBody(fromId, status) ? this.from.checker.responseBodyErrors(fromId, status, responseBody) : []);
    const errors = this.next.checker.responseBodyErrors(nextId, status, responseBody);
    if (errors.length) return newErrors(errors, this.requiredBefore(errors, fromId, status) ?? fromErrors()).map((error) => ({ pointer: pointerOf(error), reason: `answer ${describe(error)}` }));
    // Probed only on an answer --from accepts too (otherwise any removal "breaks" --from); asked
    // only when a probe may find something, so like answers cost NEXT's validation alone.
    const optional = removalProbes(responseBody, (body) => this.leftOutNewly(nextId, fromId, status, body), this.probeCache, `${nextId} ${status}`, () => fromErrors().length === 0);
    return optional.map((pointer) => ({ pointer, reason: 'answer field may now be left out: NEXT no longer requires it' }));
  }

  /**
   * --from's errors among `errors` without validating the body again, when each is a field missing at
   * the answer's root (NEXT's new required fields, the commonest change) and --from's `required`
   * there alone decides it (ContractView.rootRequired): such an error is --from's too exactly when
   * --from requires that field. Undefined when that cannot be told: then --from validates the body.
   */
  private requiredBefore(errors: ErrorObject[], fromId: string, status: number): ErrorObject[] | undefined {
    if (!errors.every((error) => error.keyword === 'required' && error.instancePath === '')) return undefined;
    if (!this.from.checker.documentsBody(fromId, status)) return [];
    const required = this.from.rootRequired(fromId, status);
    return required && errors.filter((error) => required.has((error.params as { missingProperty: string }).missingProperty));
  }

  /** Whether a body without one field keeps NEXT and breaks --from: the field is no longer required. */
  private leftOutNewly(nextId: string, fromId: string, status: number, body: unknown): boolean {
    return this.next.checker.responseBodyErrors(nextId, status, body).length === 0 && this.from.checker.responseBodyErrors(fromId, status, body).length > 0;
  }
}

interface RequestPlan {
  changed: OperationView['pathParameters'];
  sameBody: boolean;
}

interface Problem {
  pointer: string;
  reason: string;
}

/** No finding: one array for every exchange that has none (most of a journal). */
const NONE: Finding[] = Object.freeze([]) as unknown as Finding[];

/** A finding built field by field (spreading three objects per finding cost more than the rest of its making). */
function finding(kind: Kind, operationId: string, method: string, path: string, pointer: string, reason: string): Finding {
  return { kind, operationId, method, path, pointer, reason };
}

/** The errors of `errors` that `old` has not, compared by place and rule. */
function newErrors(errors: ErrorObject[], old: ErrorObject[]): ErrorObject[] {
  // The usual case of a finding: one error, none before. Nothing to compare or merge.
  if (errors.length <= 1 && old.length === 0) return errors;
  const seen = new Set(old.map(keyOf));
  const kept = new Map<string, ErrorObject>();
  for (const error of errors) {
    const key = keyOf(error);
    if (!seen.has(key) && !kept.has(key)) kept.set(key, error);
  }
  return [...kept.values()];
}

const keyOf = (error: ErrorObject): string => `${pointerOf(error)} ${error.keyword}`;

/** The field's pointer: a missing or unexpected property is named, not its object. */
export function pointerOf(error: ErrorObject): string {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const name = params.missingProperty ?? params.additionalProperty;
  return name === undefined ? error.instancePath : `${error.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

const MAX_VALUE_CHARS = 60;

function describe(error: ErrorObject): string {
  const params = error.params as { additionalProperty?: string };
  const what = params.additionalProperty === undefined ? `${error.message ?? error.keyword} (${error.keyword})` : `must not have the field '${params.additionalProperty}' (additionalProperties)`;
  const data = error.keyword === 'required' || error.keyword === 'additionalProperties' || typeof error.data === 'object' ? '' : `, got ${clip(JSON.stringify(error.data) ?? String(error.data))}`;
  return `${what}${data}`;
}

const clip = (text: string): string => (text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text);
