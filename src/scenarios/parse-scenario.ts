// A scenario file's content → a Scenario, or a ScenarioError naming the file, the rule and the
// reason. Two checks: the shape (scenarios/scenario.schema.json, the same schema editors use for
// completion), then the contract: every forced status documented for every operation its rule
// can match, every forced body valid for it.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { BUILT_IN_ERRORS, type BuiltInError } from '../core/builtin-errors.js';
import type { DelayRange, Fault, ForcedResponse, RuleMatch, Scenario, ScenarioRule } from '../core/scenarios.js';
import type { ContractRules } from './contract-rules.js';

export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

interface RawRule {
  match: { operation: string | string[]; headers?: Record<string, string>; body?: Record<string, unknown>; account?: string };
  error?: BuiltInError;
  respond?: ForcedResponse;
  fault?: Fault;
  delay?: number | { min: number; max: number };
  times?: number;
}

interface RawScenario {
  name: string;
  description: string;
  rules: RawRule[];
}

/**
 * Ajv's options for the shape check. The validator generated ahead of time for the package's
 * schema (scenario-shape-validator.ts, `npm run gen:scenario-schema`) is made with these same ones.
 */
export const SHAPE_AJV_OPTIONS = { strict: false, allErrors: true } as const;

/** The shape check compiled now: for a schema text the generated validator was not made from. */
export function compileShape(schema: object): ValidateFunction {
  // No meta-schema check: the schema is the package's (load-scenarios.ts), checked once in the
  // suite (test/process/meta-schema.test.ts); compiling the meta-schema was ~25 ms of a start.
  return new Ajv({ ...SHAPE_AJV_OPTIONS, validateSchema: false }).compile(schema);
}

export class ScenarioParser {
  /** The shape check: scenario-shape.ts's shapeValidator (generated ahead, or compiled). */
  constructor(
    private readonly validateShape: ValidateFunction,
    private readonly contract: ContractRules,
  ) {}

  parse(raw: unknown, source: string): Scenario {
    if (!this.validateShape(raw)) {
      throw new ScenarioError(`${source}${describeShapeError(this.validateShape.errors?.[0])} (see scenarios/scenario.schema.json)`);
    }
    const scenario = raw as RawScenario;
    const rules = scenario.rules.map((rule, index) => this.parseRule(rule, `${source}: rule ${index + 1}`));
    return { name: scenario.name, description: scenario.description, source, rules };
  }

  private parseRule(raw: RawRule, where: string): ScenarioRule {
    const match = this.parseMatch(raw.match, where);
    const respond = raw.error ? BUILT_IN_ERRORS[raw.error] : raw.respond;
    if (respond) this.requireContract(match, respond, where);
    const delay = raw.delay === undefined ? undefined : parseDelay(raw.delay, where);
    return {
      match,
      ...(respond ? { respond } : {}),
      ...(raw.fault ? { fault: raw.fault } : {}),
      ...(delay ? { delay } : {}),
      ...(raw.times === undefined ? {} : { times: raw.times }),
    };
  }

  private parseMatch(raw: RawRule['match'], where: string): RuleMatch {
    const known = this.contract.operationIds();
    const operations = raw.operation === '*' ? this.contract.everyOperation() : [raw.operation].flat();
    if (raw.operation !== '*') {
      for (const operation of operations) {
        if (!known.includes(operation) && !this.contract.goneOperations().includes(operation)) throw new ScenarioError(`${where}: unknown operation '${operation}' (known: ${known.join(', ')}, or *)`);
      }
    }
    const headers = raw.headers && Object.fromEntries(Object.entries(raw.headers).map(([name, value]) => [name.toLowerCase(), value]));
    return {
      operations,
      ...(headers ? { headers } : {}),
      ...(raw.body ? { body: raw.body } : {}),
      ...(raw.account === undefined ? {} : { account: raw.account }),
    };
  }

  private requireContract(match: RuleMatch, respond: ForcedResponse, where: string): void {
    const operations = match.operations === '*' ? this.contract.operationIds() : match.operations;
    for (const operation of operations.filter((name) => !this.contract.goneOperations().includes(name))) {
      const problems = this.contract.problems(operation, respond.status, respond.body);
      if (problems.length) throw new ScenarioError(`${where}: would break openapi.yaml for ${operation}: ${problems.join('; ')}`);
    }
  }
}

/** ": rule 2 at /rules/1/fault: must be one of connection-reset, ...": rules counted from 1, as in contract errors. */
function describeShapeError(error: ErrorObject | undefined): string {
  if (!error) return ': invalid';
  const rule = /^\/rules\/(\d+)/.exec(error.instancePath);
  const where = `${rule ? `: rule ${Number(rule[1]) + 1}` : ''}${error.instancePath ? ` at ${error.instancePath}` : ''}`;
  const params = error.params as { additionalProperty?: string; allowedValues?: unknown[]; missingProperty?: string };
  const missingAction = error.keyword === 'required' && ['error', 'respond', 'fault', 'delay'].includes(params.missingProperty ?? '');
  const message =
    error.keyword === 'not' ? 'error, respond and fault exclude each other: a rule does one of them'
    : error.keyword === 'anyOf' || missingAction ? 'a rule needs one of error, respond, fault or delay'
    : error.keyword === 'additionalProperties' ? `unknown field '${params.additionalProperty ?? '?'}'`
    : error.keyword === 'enum' ? `must be one of ${(params.allowedValues ?? []).join(', ')}`
    : (error.message ?? 'is invalid');
  return `${where}: ${message}`;
}

function parseDelay(raw: number | { min: number; max: number }, where: string): DelayRange {
  if (typeof raw === 'number') return { minMs: raw, maxMs: raw };
  if (raw.min > raw.max) throw new ScenarioError(`${where}: delay min (${raw.min}) is over max (${raw.max})`);
  return { minMs: raw.min, maxMs: raw.max };
}
