// One contract (NEXT or --from) as evolve judges by it: which operation a method and path name
// (the server's OperationTable), its bodies' validators (the contract checker's Ajv:
// ResponseChecker), and what the request needs besides its body: the security headers and the
// path parameters' schemas (compiled by the same bounded Ajv), read per operation by operation-view.ts.
import type { ErrorObject } from 'ajv';
import type { Contract } from '../../core/contract-types.js';
import { BoundedAjv } from '../../contract/bounded-validation.js';
import { ResponseChecker } from '../../contract/response-checker.js';
import { OperationTable } from '../../http/operation-table.js';
import { valueAt } from '../../core/schema-pointer.js';
import { DOC, isObject, operationView, type Json, type OperationView } from './operation-view.js';

export class ContractView {
  readonly table: OperationTable;
  readonly checker: ResponseChecker;
  readonly version: string;
  readonly title: string;
  /**
   * What the operation table matches by: each path template, in order, with its methods'
   * operationIds. Two contracts with the same routes match every method and path alike.
   */
  readonly routes: string;
  private readonly operations = new Map<string, OperationView>();
  /** By path template (as many as the contract has paths). */
  private readonly patterns = new Map<string, { names: string[]; pattern: RegExp }>();
  private readonly rootRequirements = new Map<string, ReadonlySet<string> | undefined>();
  /** schemaText's, by node: each part of the document is written out once. */
  private readonly texts = new WeakMap<object, string>();

  /** Throws when the contract's schemas cannot be compiled (the caller reports it as bad input). */
  constructor(readonly contract: Contract) {
    const document = contract.document as unknown as Json;
    this.table = new OperationTable(contract.document);
    this.routes = routesOf(document);
    this.checker = new ResponseChecker(contract.document as never);
    const info = isObject(document['info']) ? document['info'] : {};
    this.version = typeof info['version'] === 'string' ? info['version'] : '?';
    this.title = typeof info['title'] === 'string' ? info['title'] : 'API';
    const ajv = new BoundedAjv(document, DOC);
    for (const operation of this.checker.operationList()) this.operations.set(operation.operationId, operationView(ajv, document, operation));
  }

  /**
   * Whether `node` of this contract and `other` of `that` say the same: the same JSON, reaching the
   * same references with the same JSON (or both absent). Then they validate alike, and a judge may
   * skip both (nothing can be new); a difference, even one that changes nothing, only means both are asked.
   */
  sameAs(node: unknown, that: ContractView, other: unknown): boolean {
    if (node === undefined || other === undefined) return node === other;
    return this.schemaText(node) === that.schemaText(other);
  }

  private schemaText(node: unknown): string {
    if (typeof node !== 'object' || node === null) return JSON.stringify(node) ?? '';
    let text = this.texts.get(node);
    if (text === undefined) this.texts.set(node, (text = referencedText(this.contract.document, node)));
    return text;
  }

  /**
   * The `required` of the answer's JSON schema for exactly `status`, when it alone decides a missing
   * field at the body's root: reached through nodes that are nothing but a `$ref`, and with none of
   * ROOT_COMBINATORS beside it. Undefined otherwise (or when no body is documented for it).
   */
  rootRequired(operationId: string, status: number): ReadonlySet<string> | undefined {
    const key = `${operationId}\0${status}`;
    if (!this.rootRequirements.has(key)) this.rootRequirements.set(key, requiredAtRoot(this.contract.document as unknown as Json, this.operation(operationId)?.responseNodes[String(status)]));
    return this.rootRequirements.get(key);
  }

  operation(operationId: string): OperationView | undefined {
    return this.operations.get(operationId);
  }

  operationIds(): string[] {
    return [...this.operations.keys()];
  }

  /** The operation's path parameters' values in `path` (which it matches). */
  pathValues(template: string, path: string): Record<string, string> {
    // One pattern per template, made once: a journal holds thousands of calls of a few operations.
    let compiled = this.patterns.get(template);
    if (!compiled) {
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
      compiled = { names, pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^/]+)')}$`) };
      this.patterns.set(template, compiled);
    }
    const values = compiled.pattern.exec(path) ?? [];
    return Object.fromEntries(compiled.names.map((name, index) => [name, safeDecode(values[index + 1] ?? '')]));
  }
}

export type { ErrorObject };

/** Keywords that may add a 'required' error at the root besides the root's own `required`. */
const ROOT_COMBINATORS = ['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependencies', 'dependentRequired', 'dependentSchemas'];

function requiredAtRoot(document: Json, response: unknown): ReadonlySet<string> | undefined {
  const media = onlyRef(document, response)?.['content'];
  const json = isObject(media) ? media['application/json'] : undefined;
  const schema = isObject(json) ? onlyRef(document, json['schema']) : undefined;
  if (!schema || ROOT_COMBINATORS.some((keyword) => keyword in schema)) return undefined;
  const required = schema['required'] ?? [];
  return Array.isArray(required) && required.every((name) => typeof name === 'string') ? new Set(required) : undefined;
}

/** A node, followed through nodes that hold a `$ref` and nothing else (a bounded chain); undefined for any other $ref. */
function onlyRef(document: Json, node: unknown, depth = 0): Json | undefined {
  if (!isObject(node)) return undefined;
  const ref = node['$ref'];
  if (ref === undefined) return node;
  if (typeof ref !== 'string' || !ref.startsWith('#') || Object.keys(node).length !== 1 || depth > 20) return undefined;
  return onlyRef(document, valueAt(document, ref.slice(1)), depth + 1);
}

function routesOf(document: Json): string {
  const paths = isObject(document['paths']) ? document['paths'] : {};
  return Object.entries(paths)
    .map(([template, item]) => `${template} ${isObject(item) ? ROUTE_METHODS.filter((method) => item[method]).map((method) => `${method}=${String((item[method] as Json)['operationId'])}`).join(',') : ''}`)
    .join('\n');
}

/** The methods the operation table (src/http/operation-table.ts) knows. */
const ROUTE_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A node's JSON, then each reference it reaches (transitively) with its target's JSON; a unique text past MAX_SCHEMA_PARTS. */
function referencedText(document: unknown, node: object): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  const pending: unknown[] = [node];
  while (pending.length > 0) {
    if (parts.length > MAX_SCHEMA_PARTS) return `\0unbounded ${(unbounded += 1)}`;
    const text = JSON.stringify(pending.pop()) ?? '';
    parts.push(text);
    for (const [, ref] of text.matchAll(/"\$ref":"(#[^"]*)"/g)) {
      if (ref === undefined || seen.has(ref)) continue;
      seen.add(ref);
      parts.push(ref);
      pending.push(valueAt(document, ref.slice(1)));
    }
  }
  return parts.join('\n');
}

/** References followed when comparing two schemas; past it they are taken for different (both validated). */
export const MAX_SCHEMA_PARTS = 1_000;
let unbounded = 0;

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
