// One recorded exchange judged against NEXT, beside --from: what NEXT would do differently.
//  - breaking: NEXT refuses the request as sent (its operation or method gone, a security header it
//    lacks, a path parameter or body field now invalid), or the recorded status is no longer
//    documented for it;
//  - changed: the request passes, but the answer got is no longer what NEXT allows (a field now
//    invalid or newly required), or a field it got may now be left out (no longer required).
// Only what is new in NEXT counts: a problem the exchange had under --from too (a QA script's
// deliberately bad request, a 404 of an unknown path) is no change.
import type { ErrorObject } from 'ajv';
import type { ContractView } from './contract-view.js';
import type { Exchange } from './exchanges.js';
import { removalProbes } from './removal-probes.js';

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
  private readonly probeCache = new Map<string, boolean>();

  constructor(
    readonly from: ContractView,
    readonly next: ContractView,
  ) {}

  /** The --from operation the exchange called, if any. */
  operationOf(exchange: Exchange): string | undefined {
    const match = this.from.table.match(exchange.method, exchange.path.split('?')[0] ?? '');
    return match.kind === 'operation' ? match.operationId : undefined;
  }

  judge(exchange: Exchange): Finding[] {
    const path = exchange.path.split('?')[0] ?? '';
    const before = this.from.table.match(exchange.method, path);
    const after = this.next.table.match(exchange.method, path);
    // Not an operation of --from either (a 404 or 405 the consumer already got): nothing moved.
    if (before.kind !== 'operation') return [];
    const was = this.from.operation(before.operationId);
    const at = { operationId: before.operationId, method: exchange.method, path: was?.path ?? path, pointer: '' };
    if (after.kind === 'unknown-path') return [{ ...at, kind: 'breaking', reason: `operation removed: NEXT has no path for ${exchange.method} ${path} (404)` }];
    if (after.kind === 'method-not-allowed') return [{ ...at, kind: 'breaking', reason: `operation removed: NEXT has no ${exchange.method} for this path (405; it has ${after.allowed.join(', ') || 'none'})` }];
    const operation = this.next.operation(after.operationId);
    if (!operation || !was) return [];
    const here = { operationId: after.operationId, method: exchange.method, path: operation.path };
    const breaking = this.requestProblems(exchange, after.operationId, before.operationId, path).map((problem) => ({ ...here, kind: 'breaking' as const, ...problem }));
    if (!operation.statuses.includes(exchange.status) && was.statuses.includes(exchange.status)) {
      breaking.push({ ...here, kind: 'breaking', pointer: '', reason: `status ${exchange.status} is no longer documented (NEXT documents ${operation.statuses.join(', ')})` });
    }
    if (breaking.length > 0 || !operation.statuses.includes(exchange.status)) return breaking;
    return this.answerProblems(exchange, after.operationId, before.operationId).map((problem) => ({ ...here, kind: 'changed' as const, ...problem }));
  }

  private requestProblems(exchange: Exchange, nextId: string, fromId: string, path: string): Problem[] {
    const next = this.next.operation(nextId);
    const from = this.from.operation(fromId);
    if (!next || !from) return [];
    const problems: Problem[] = [];
    // Only a request that kept --from's security (every header it asked for; any request when it asked none) is newly refused.
    const keptFrom = from.securityHeaders.every((header) => exchange.headers[header] !== undefined);
    for (const header of next.securityHeaders) {
      if (exchange.headers[header] === undefined && keptFrom) {
        problems.push({ pointer: '', reason: `security: NEXT requires the ${header} header, which the request did not send (401)` });
      }
    }
    const values = next.pathParameters.length ? this.next.pathValues(next.path, path) : {};
    for (const parameter of next.pathParameters) {
      const errors = parameter.validate(values[parameter.name] ?? '');
      const before = errors.length ? from.pathParameters.find((candidate) => candidate.name === parameter.name) : undefined;
      const old = before?.validate(this.from.pathValues(from.path, path)[parameter.name] ?? '') ?? [];
      problems.push(...newErrors(errors, old).map((error) => ({ pointer: '', reason: `path parameter ${parameter.name} ${describe(error)}` })));
    }
    if (exchange.requestBody === undefined) {
      if (next.bodyRequired && !from.bodyRequired) problems.push({ pointer: '', reason: 'the request body is now required' });
      return problems;
    }
    const sent = (exchange.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
    if (next.requestMediaTypes.length && !next.requestMediaTypes.includes(sent) && from.requestMediaTypes.includes(sent)) {
      return [...problems, { pointer: '', reason: `content type ${sent} is no longer accepted (NEXT takes ${next.requestMediaTypes.join(', ')}; 400)` }];
    }
    const errors = this.next.checker.requestBodyErrors(nextId, exchange.requestBody);
    // --from is asked only when NEXT finds something: most exchanges keep both, at half the cost.
    const old = errors.length ? this.from.checker.requestBodyErrors(fromId, exchange.requestBody) : [];
    return [...problems, ...newErrors(errors, old).map((error) => ({ pointer: pointerOf(error), reason: `request body ${describe(error)}` }))];
  }

  private answerProblems(exchange: Exchange, nextId: string, fromId: string): Problem[] {
    const { status, responseBody } = exchange;
    const documents = this.next.checker.documentsBody(nextId, status);
    if (!documents) return responseBody === undefined || this.from.checker.documentsBody(fromId, status) === false ? [] : [{ pointer: '', reason: `NEXT documents no body for status ${status}, and the answer had one` }];
    if (responseBody === undefined) return this.from.checker.documentsBody(fromId, status) ? [] : [{ pointer: '', reason: `NEXT documents a body for status ${status}, and the answer had none` }];
    const fromErrors = (): ErrorObject[] => (this.from.checker.documentsBody(fromId, status) ? this.from.checker.responseBodyErrors(fromId, status, responseBody) : []);
    const errors = this.next.checker.responseBodyErrors(nextId, status, responseBody);
    if (errors.length) return newErrors(errors, fromErrors()).map((error) => ({ pointer: pointerOf(error), reason: `answer ${describe(error)}` }));
    // Probed only on an answer --from accepts too (otherwise any removal "breaks" --from); asked
    // only when a probe may find something, so like answers cost NEXT's validation alone.
    const optional = removalProbes(responseBody, (body) => this.leftOutNewly(nextId, fromId, status, body), this.probeCache, `${nextId} ${status}`, () => fromErrors().length === 0);
    return optional.map((pointer) => ({ pointer, reason: 'answer field may now be left out: NEXT no longer requires it' }));
  }

  /** Whether a body without one field keeps NEXT and breaks --from: the field is no longer required. */
  private leftOutNewly(nextId: string, fromId: string, status: number, body: unknown): boolean {
    return this.next.checker.responseBodyErrors(nextId, status, body).length === 0 && this.from.checker.responseBodyErrors(fromId, status, body).length > 0;
  }
}

interface Problem {
  pointer: string;
  reason: string;
}

/** The errors of `errors` that `old` has not, compared by place and rule. */
function newErrors(errors: ErrorObject[], old: ErrorObject[]): ErrorObject[] {
  const seen = new Set(old.map(keyOf));
  const kept = new Map<string, ErrorObject>();
  for (const error of errors) if (!seen.has(keyOf(error)) && !kept.has(keyOf(error))) kept.set(keyOf(error), error);
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
