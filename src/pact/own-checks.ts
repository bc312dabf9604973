// The checks of a pact that shortlink-mock makes with its own validators, where swagger-mock-validator
// falls short for this contract (see check.ts for the whole split):
//  - the path and method name an operation: the engine takes /links/ for /links, and the API
//    answers such a path 404 (405 for a method a path does not have);
//  - the x-api-key header, for every expected status but 401: the engine checks security only for
//    statuses below 400, yet a request without a key is answered 401 (D14), never 400 or 404;
//  - the request body, for every expected status but 401 (the key is checked first) and a 400
//    without an Error code (an invalid body is what such a 400 answers): the engine skips request
//    bodies for statuses of 400 and above, yet an invalid body is answered 400 before any 404 or
//    LINK_LIMIT_REACHED (D19), and its messages do not name an unexpected field; ResponseChecker
//    (the mock's own Ajv over openapi.yaml) does;
//  - an Error `code` only where the contract shows it (LINK_LIMIT_REACHED: createLink 400, D5):
//    the Error schema allows every code on every status;
//  - interactions that are not HTTP (V4 messages), which the engine skips without a word;
//  - query names the engine misreads (`?constructor=1`, misread-names.ts), which it is not handed:
//    a note when the operation does not declare the name, as the engine gives for any other.
// And, when the engine cannot be loaded (an optional dependency), its part: standIn().
import type { Contract } from '../core/contract-types.js';
import { ResponseChecker } from '../contract/response-checker.js';
import { OperationTable } from '../http/operation-table.js';
import type { Finding } from './finding.js';
import type { PactInteraction } from './pact-file.js';
import { codePlaces, keyHeaders, queryParameters } from './contract-facts.js';
import { engineMisreads, queryNames } from './misread-names.js';
import { closedObjects, responseFindings } from './own-response-checks.js';

export const OWN = 'shortlink-mock';

type HttpInteraction = Extract<PactInteraction, { kind: 'http' }>;

export class OwnChecks {
  private readonly table: OperationTable;
  private readonly checker: ResponseChecker;
  private readonly keyHeaders: string[];
  private readonly codePlaces: Map<string, string[]>;
  private readonly queryParameters: Map<string, Set<string>>;
  /** The responses' judge when the engine is not there: built on first use (it compiles the contract again). */
  private closedChecker?: ResponseChecker;

  constructor(private readonly contract: Contract) {
    this.table = new OperationTable(contract.document);
    this.checker = new ResponseChecker(contract.document);
    this.keyHeaders = keyHeaders(contract.document);
    this.codePlaces = codePlaces(contract.document);
    this.queryParameters = queryParameters(contract.document);
  }

  findings(interaction: PactInteraction): Finding[] {
    const at = { index: interaction.index, engine: OWN, severity: 'error' as const };
    if (interaction.kind === 'other') {
      return [{ ...at, side: 'interaction', field: 'type', code: 'interaction.type.unsupported', message: `'${interaction.type}' cannot be checked: openapi.yaml describes HTTP only` }];
    }
    const { method, path } = interaction.request;
    const match = this.table.match(method, path);
    if (match.kind === 'unknown-path') {
      return [{ ...at, side: 'request', field: 'path', code: 'request.path.unknown', message: `${path} is not a path of the contract: the API answers it 404` }];
    }
    if (match.kind === 'method-not-allowed') {
      return [{ ...at, side: 'request', field: 'method', code: 'request.method.unknown', message: `${path} has no ${method} operation (it has ${match.allowed.join(', ')}): the API answers it 405` }];
    }
    const found = [...this.apiKey(interaction), ...this.requestBody(interaction, match.operationId), ...this.errorCode(interaction, match.operationId)];
    return [...found.map((finding) => ({ ...at, ...finding })), ...this.misreadQuery(interaction, match.operationId)];
  }

  /**
   * The engine's part, when it is not installed: the expected status, content type and body
   * (own-response-checks.ts). An interaction that names no operation has findings() already.
   */
  standIn(interaction: PactInteraction): Finding[] {
    if (interaction.kind === 'other') return [];
    const operationId = this.operationOf(interaction);
    if (!operationId) return [];
    this.closedChecker ??= new ResponseChecker(closedObjects(this.contract.document));
    return responseFindings(this.closedChecker, interaction, operationId).map((finding) => ({ ...finding, index: interaction.index, engine: OWN, severity: 'error' }));
  }

  /**
   * The interaction as the engine is given it: its bodies' arrays over maxItems cut to one past them
   * (the engine validates with allErrors, quadratic in an oversize array's bad items; cut, it reports the same rule).
   */
  forEngine(interaction: PactInteraction): PactInteraction {
    const operationId = interaction.kind === 'http' ? this.operationOf(interaction) : undefined;
    if (interaction.kind !== 'http' || !operationId) return interaction;
    const { request, response } = interaction;
    return {
      ...interaction,
      request: { ...request, body: this.checker.boundedBody(operationId, 'request', request.body) },
      response: { ...response, body: this.checker.boundedBody(operationId, response.status, response.body) },
    };
  }

  /** Which operation the interaction names, if any: for the report. */
  operationOf(interaction: HttpInteraction): string | undefined {
    const match = this.table.match(interaction.request.method, interaction.request.path);
    return match.kind === 'operation' ? match.operationId : undefined;
  }

  private apiKey({ request, response }: HttpInteraction): Omit<Finding, 'index' | 'engine' | 'severity'>[] {
    if (response.status === 401) return [];
    const missing = this.keyHeaders.filter((name) => !request.headers[name]);
    return missing.map((name) => ({ side: 'request', field: `header ${name}`, code: 'request.api-key.missing', message: `is missing: the contract requires it, and without it the answer is 401 (D14), never ${response.status}` }));
  }

  private requestBody({ request, response }: HttpInteraction, operationId: string): Omit<Finding, 'index' | 'engine' | 'severity'>[] {
    // A 400 with an Error code (LINK_LIMIT_REACHED) comes from a rule checked after the body's
    // shape (D19): its request body must be valid too; any other 400 may be about the body.
    const code = errorCodeOf(response.body);
    if (response.status === 401 || (response.status === 400 && code === undefined)) return [];
    const answered400 =
      response.status === 400 ? `; the body is checked first (D19), so the answer is a 400 without code ${code}` : this.checker.operation(operationId).statuses.includes(400) ? `; such a request is answered 400, not ${response.status}` : '';
    return this.checker.requestBodyProblems(operationId, request.body).map((problem) => {
      // "request body.tags[0].name must ..." → field 'body.tags[0].name', message 'must ...'
      const words = /^(?:the )?request (body\S*) (.*)$/.exec(problem);
      return { side: 'request', field: words?.[1] ?? 'body', code: 'request.body.invalid', message: `${words?.[2] ?? problem}${answered400}` };
    });
  }

  /** The query names kept from the engine (misread-names.ts), judged as it judges any other name. */
  private misreadQuery({ index, request }: HttpInteraction, operationId: string): Finding[] {
    const declared = this.queryParameters.get(operationId) ?? new Set<string>();
    return queryNames(request.query)
      .filter(engineMisreads)
      .map((name) =>
        declared.has(name)
          ? { index, engine: OWN, severity: 'error', side: 'request', field: `query ${name}`, code: 'request.query.unchecked', message: `cannot be checked: ${operationId} declares it, and swagger-mock-validator misreads the name of a member of every JavaScript object` }
          : { index, engine: OWN, severity: 'warning', side: 'request', field: `query ${name}`, code: 'request.query.unknown', message: `is not defined by the contract for ${operationId}` },
      );
  }

  private errorCode({ response }: HttpInteraction, operationId: string): Omit<Finding, 'index' | 'engine' | 'severity'>[] {
    const code = errorCodeOf(response.body);
    const places = code === undefined ? undefined : this.codePlaces.get(code);
    // A code the contract never shows is the engine's finding (body.code must be one of …).
    if (!places || places.includes(`${operationId} ${response.status}`)) return [];
    return [{ side: 'response', field: 'body.code', code: 'response.error-code.misplaced', message: `${code} is answered only with ${places.join(', ')} (where the contract shows it), not with ${operationId} ${response.status}` }];
  }
}

/** The `code` of an expected Error body, if it has one. */
function errorCodeOf(body: unknown): string | undefined {
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
