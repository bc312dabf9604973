// PactFlow's swagger-mock-validator, the engine behind their hosted bi-directional contract testing,
// run locally on one pact and openapi.yaml, its results turned into findings per interaction.
//
// Its content API (dist/api.js: validate({spec, mock}) on text, no files, no network) is the
// package's JavaScript API, but its package.json exports only the file-based factory; so the module
// is found beside the exported entry. The version is pinned (package.json). It is an optional
// dependency: its `postinstall: patch-package` fails a CI install where npm runs dependency scripts
// (npm 10), and npm then leaves it out rather than fail. A module that cannot be resolved or
// imported is EngineMissing, never a silent pass: check.ts has the mock's own checks take its part.
//
// It is handed a V3 pact of the HTTP interactions only, rebuilt from our reading of the file: it
// numbers interactions after dropping non-HTTP ones, and it crashes on malformed ones; ours are
// already checked, V4 bodies already unwrapped, so every version reaches it in the same shape.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PactFile, PactInteraction } from './pact-file.js';
import { preview, type Finding, type Side } from './finding.js';
import { engineMisreads } from './misread-names.js';
import { queryValues } from './query-values.js';

export const ENGINE = 'swagger-mock-validator';
type HttpInteraction = Extract<PactInteraction, { kind: 'http' }>;
const PACKAGE = '@pactflow/swagger-mock-validator';

interface EngineResult {
  code: string;
  message: string;
  type: 'error' | 'warning';
  mockDetails?: { location?: string; value?: unknown; interactionDescription?: string };
  specDetails?: { value?: unknown };
}
interface EngineOutcome {
  errors: EngineResult[];
  warnings: EngineResult[];
}
interface EngineApi {
  validate(options: { spec: Source; mock: Source; additionalPropertiesInResponse: boolean; requiredPropertiesInResponse: boolean }): Promise<EngineOutcome>;
}
interface Source {
  content: string;
  format: 'auto-detect';
  pathOrUrl: string;
}

/**
 * Results the engine gives that shortlink-mock's own checks (own-checks.ts) replace: the request
 * body and the x-api-key header (the engine skips both for every expected status of 400 and above,
 * and its request-body messages do not name an unexpected field), and the path and method (the
 * engine takes /links/ for /links, which the API answers 404).
 */
const REPLACED = new Set(['request.body.incompatible', 'request.body.unknown', 'request.authorization.missing', 'request.path-or-method.unknown']);

/** The engine could not read one of its two inputs (the pact is checked before, so: the contract). */
export class EngineRefusal extends Error {
  constructor(
    readonly input: 'contract' | 'pact',
    message: string,
  ) {
    super(message);
  }
}

/** The engine's module cannot be resolved or imported (not installed, or a broken install). */
export class EngineMissing extends Error {}

let api: Promise<EngineApi> | undefined;

/** from: the module (file URL) the package is resolved from; only this module's own result is kept. */
function loadEngine(from: string): Promise<EngineApi> {
  if (from !== import.meta.url) return importEngine(from);
  api ??= importEngine(from);
  return api;
}

async function importEngine(from: string): Promise<EngineApi> {
  let entry: string;
  try {
    entry = createRequire(from).resolve(PACKAGE);
  } catch {
    throw new EngineMissing(`${ENGINE} (an optional dependency) is not installed`);
  }
  let module: { default?: EngineApi };
  try {
    module = (await import(pathToFileURL(join(dirname(entry), 'api.js')).href)) as { default?: EngineApi };
  } catch (error) {
    throw new EngineMissing(`${ENGINE} (an optional dependency) is installed but cannot be loaded (${(error as Error).message.split('\n')[0]})`);
  }
  // A module that loads but lacks the API is a wrong version: an error to fix, not a fallback.
  if (typeof module.default?.validate !== 'function') throw new Error(`${PACKAGE}: dist/api.js has no validate(); pact check needs version 14.5.0`);
  return module.default;
}

/**
 * The engine's findings on the pact's HTTP interactions, keyed by their index in the file.
 * engineFrom: where the engine is resolved from (tests name a place without it). Throws
 * EngineMissing when it cannot be loaded, EngineRefusal when it cannot read an input.
 */
export async function engineFindings(pact: PactFile, contractText: string, engineFrom = import.meta.url): Promise<Finding[]> {
  const http = pact.interactions.filter((interaction): interaction is HttpInteraction => interaction.kind === 'http');
  if (http.length === 0) return [];
  const mock = {
    consumer: { name: pact.consumer },
    provider: { name: pact.provider },
    interactions: http.map(({ description, providerStates, request, response }) => ({
      description,
      providerState: providerStates.join('; ') || undefined,
      request: { ...request, query: engineQuery(request.query) },
      response,
    })),
    metadata: { pactSpecification: { version: '3.0.0' } },
  };
  const outcome = await validate(await loadEngine(engineFrom), contractText, JSON.stringify(mock));
  return [...outcome.errors, ...outcome.warnings].filter((result) => !REPLACED.has(result.code)).map((result) => toFinding(result, http));
}

/** The query as the engine reads it (V3 value lists), without the names it misreads (own-checks.ts judges those). */
function engineQuery(query: HttpInteraction['request']['query']): Record<string, string[]> | undefined {
  if (query === undefined) return undefined;
  const values = typeof query === 'string' ? queryValues(query) : query;
  return Object.fromEntries(Object.entries(values).filter(([name]) => !engineMisreads(name)));
}

async function validate(engine: EngineApi, contractText: string, pactText: string): Promise<EngineOutcome> {
  try {
    return await engine.validate({
      spec: { content: contractText, format: 'auto-detect', pathOrUrl: 'openapi.yaml' },
      mock: { content: pactText, format: 'auto-detect', pathOrUrl: 'pact.json' },
      // Its defaults, written down: an expected field the schema does not have is refused; a required
      // field the pact leaves out is not, since Pact bodies are partial (a provider that answers more
      // than the pact lists still passes verification).
      additionalPropertiesInResponse: false,
      requiredPropertiesInResponse: false,
    });
  } catch (error) {
    // Its own errors (SWAGGER_MOCK_VALIDATOR_PARSE_ERROR, ...) name the input by the name given above.
    const { code, message } = error as { code?: unknown; message?: string };
    if (typeof code !== 'string' || !code.startsWith('SWAGGER_MOCK_VALIDATOR')) throw error;
    throw new EngineRefusal(message?.includes('"pact.json"') ? 'pact' : 'contract', `${ENGINE}: ${message ?? code}`);
  }
}

// A result's place: '[root].interactions[2].response.body.createdAt', or only '[root].interactions[2]'
// for a result about the whole interaction (a missing Content-Type, say).
const LOCATION = /^\[root\]\.interactions\[(\d+)\](?:\.(request|response)(?:\.(.+))?)?$/;
/** The field of a result placed on the whole interaction, by the middle of its code. */
const HEADER_CODES = new Set(['content-type', 'accept', 'authorization']);

function toFinding(result: EngineResult, http: HttpInteraction[]): Finding {
  const match = LOCATION.exec(result.mockDetails?.location ?? '');
  // Its number counts the HTTP interactions handed to it; the description is the fallback.
  const interaction = match ? http[Number(match[1])] : http.find((candidate) => candidate.description === result.mockDetails?.interactionDescription);
  const [codeSide, codeField = ''] = result.code.split('.');
  const side: Side = (match?.[2] ?? codeSide) === 'response' ? 'response' : 'request';
  const field = match?.[3] ?? (HEADER_CODES.has(codeField) ? `headers.${codeField}` : codeField);
  return { index: interaction?.index ?? -1, side, field: field.replace(/^headers\./, 'header ').replace(/^query\./, 'query '), message: describe(result), severity: result.type, engine: ENGINE, code: result.code };
}

/** The engine's message without its boilerplate, with the evidence it keeps elsewhere. */
function describe(result: EngineResult): string {
  const value = result.mockDetails?.value;
  const spec = result.specDetails?.value;
  const message = result.message.replace(/^(Request|Response) body is incompatible with the (request|response) body schema in the spec file: /, '');
  const unexpected = /^must NOT have additional properties - (.+)$/.exec(message);
  if (unexpected) return `has unexpected field '${unexpected[1]}' (the schema does not define it)`;
  if (result.code === 'response.status.unknown') {
    const documented = spec && typeof spec === 'object' ? Object.keys(spec).join(', ') : 'none';
    return `${preview(value)} is not documented for this operation (documented: ${documented})`;
  }
  if (result.code === 'response.body.unknown') return 'the contract documents no body for this status, the pact expects one';
  if (Array.isArray(spec) && message.startsWith('must be equal to one of')) return `must be one of ${spec.join(', ')} (got ${preview(value)})`;
  if (result.code.endsWith('.incompatible') && value !== undefined) return `${message} (got ${preview(value)})`;
  return message;
}
