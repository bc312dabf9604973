// A contract the user names (--contract FILE, MOCK_CONTRACT, startMock({ contract })), read and
// checked before anything else starts, so that a file the mock cannot serve is refused in one line
// naming its first problem, and nothing is written to the db. The package's own openapi.yaml (its
// text, wherever it lies) is the contract the rules were written for: it is taken as it is, by the
// same fast parse as the default start (contract-yaml.ts), so `--contract openapi.yaml` changes nothing.
import { createRequire } from 'node:module';
import type { Contract, OpenApiDocument } from '../core/contract-types.js';
import { MAX_CONTRACT_BYTES, MAX_CONTRACT_DEPTH } from './contract-limits.js';
import { contractReferenceProblem } from './contract-references.js';
import { PARSED_CONTRACTS } from './parsed-contracts.js';
import { readRegularFileSync } from './regular-file.js';
import { textDigest } from './text-digest.js';

const require = createRequire(import.meta.url);


/** Why a contract file is refused; its message is one line: the first problem, where known at `line L, column C`. */
export class ContractFileError extends Error {
  override name = 'ContractFileError';
}

/** The versions served: the validator (express-openapi-validator 5.6.2) takes 3.0.x and 3.1.x. */
const SERVED_VERSION = /^3\.[01]\.\d+$/;

export function readUserContract(file: string): Contract {
  return userContractOf(readUserContractText(file));
}

/** The text of a user's contract file, refused when it is missing, not a regular file or over MAX_CONTRACT_BYTES. */
export function readUserContractText(file: string): string {
  try {
    return readRegularFileSync(file, MAX_CONTRACT_BYTES);
  } catch (error) {
    throw new ContractFileError(readProblem(error as NodeJS.ErrnoException));
  }
}

/** A contract from the text of a user's file; the package's own text as it is. */
export function userContractOf(text: string): Contract {
  const known = PARSED_CONTRACTS[textDigest(text)];
  if (known !== undefined) return { text, document: JSON.parse(known) as OpenApiDocument };
  const document = parseUserContractText(text);
  const problem = openApiProblem(document) ?? contractReferenceProblem(document, text) ?? metaSchemaProblem(document as OpenApiDocument);
  if (problem) throw new ContractFileError(problem);
  return { text, document: document as OpenApiDocument };
}

function readProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return 'no such file';
  if (error.code === 'EACCES') return 'permission denied';
  return error.code && !error.message.startsWith('it ') ? error.code : error.message;
}

/** YAML or JSON (JSON is YAML), with js-yaml as the package's own contract is parsed; its position when refused. Also evolve's parse (src/commands/evolve/contract-file.ts). */
export function parseUserContractText(text: string): unknown {
  const jsYaml = require('js-yaml') as typeof import('js-yaml');
  try {
    return jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA, maxDepth: MAX_CONTRACT_DEPTH } as import('js-yaml').LoadOptions);
  } catch (error) {
    const { reason, mark } = error as { reason?: string; mark?: { line: number; column: number } };
    if (!reason) throw error;
    const depth = reason.startsWith('nesting exceeded maxDepth') ? `nested more than ${MAX_CONTRACT_DEPTH} levels deep` : reason;
    throw new ContractFileError(`not YAML or JSON${mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : ''}: ${depth}`);
  }
}

/** Why the document is not one served (not a mapping, Swagger, not OpenAPI 3.0/3.1, no paths); also evolve's check. */
export function openApiProblem(document: unknown): string | undefined {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return 'not an OpenAPI document: it is not a mapping of fields';
  const { openapi, swagger, paths } = document as Record<string, unknown>;
  if (swagger !== undefined) return `Swagger ${String(swagger)} is not served: convert it to OpenAPI 3.0.x`;
  if (openapi === undefined) return "not an OpenAPI document: it has no 'openapi' field";
  if (typeof openapi !== 'string' || !SERVED_VERSION.test(openapi)) return `OpenAPI ${String(openapi)} is not served: only 3.0.x and 3.1.x`;
  if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) return "not an OpenAPI document: it has no 'paths' mapping";
  return undefined;
}

/** The document checked against OpenAPI's own schema (the validator's, compiled once per version; paid only by a file of the user's). */
function metaSchemaProblem(document: OpenApiDocument): string | undefined {
  const version = String(document['openapi']).startsWith('3.1') ? '3.1.0' : '3.0.3';
  const { errors } = metaSchemaValidator(version).validate(document);
  const first = errors[0];
  return first ? `not a valid OpenAPI ${String(document['openapi'])} document: at '${first.instancePath || '/'}' ${first.message ?? 'invalid'}` : undefined;
}

type MetaSchemaValidator = { validate(document: unknown): { errors: { instancePath?: string; message?: string }[] } };
const metaSchemaValidators = new Map<string, MetaSchemaValidator>();

function metaSchemaValidator(version: string): MetaSchemaValidator {
  let validator = metaSchemaValidators.get(version);
  if (!validator) {
    const { OpenAPISchemaValidator } = require('express-openapi-validator/dist/framework/openapi.schema.validator.js') as { OpenAPISchemaValidator: new (options: unknown) => MetaSchemaValidator };
    metaSchemaValidators.set(version, (validator = new OpenAPISchemaValidator({ version, validateApiSpec: true })));
  }
  return validator;
}
