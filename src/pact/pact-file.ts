// A consumer's Pact file (specification V2, V3 or V4) read for `pact check` into one shape,
// whatever its version: headers as single strings, bodies as their JSON values (V4 wraps them in
// {content, encoded}), provider states as names. Anything else is refused with a message naming
// the place, so that neither engine is ever handed a file it would misread or crash on.
// (The Pact file `pact export` writes is typed in pact-v3.ts.) The file's size, encoding and depth
// are bounded before it is parsed (pact-input.ts); the count of interactions here.
import { engineMisreads } from './misread-names.js';
import { MAX_PACT_DEPTH, MAX_PACT_INTERACTIONS, textNestsTooDeep } from './pact-input.js';

export const SUPPORTED_VERSIONS = [2, 3, 4] as const;

export interface PactRequest {
  method: string;
  path: string;
  /** V2 writes the query as a string, V3 and V4 as an object of value lists: kept as written. */
  query?: string | Record<string, string[]>;
  headers: Record<string, string>;
  /** Absent when the interaction has no body (a Pact body is the example value, never a matcher). */
  body?: unknown;
}

export interface PactResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

export type PactInteraction =
  | { kind: 'http'; index: number; description: string; providerStates: string[]; request: PactRequest; response: PactResponse }
  /** A V4 interaction of another type (messages): openapi.yaml describes HTTP only. */
  | { kind: 'other'; index: number; description: string; type: string };

export interface PactFile {
  consumer: string;
  provider: string;
  /** The major version of the Pact specification: 2, 3 or 4. */
  version: number;
  interactions: PactInteraction[];
}

export class PactFileError extends Error {}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function fail(message: string): never {
  throw new PactFileError(message);
}

/** The file's content, already parsed from JSON, as a PactFile; throws PactFileError. */
export function readPactFile(json: unknown): PactFile {
  if (!isObject(json)) fail('a Pact file is a JSON object with consumer, provider, interactions and metadata');
  const version = specificationVersion(json);
  const interactions = json['interactions'];
  if (!Array.isArray(interactions)) fail('interactions must be an array');
  if (interactions.length === 0) fail('the pact has no interactions to check');
  if (interactions.length > MAX_PACT_INTERACTIONS) fail(`the pact has ${interactions.length} interactions; pact check reads at most ${MAX_PACT_INTERACTIONS} in one file (split it)`);
  return {
    consumer: pacticipant(json, 'consumer'),
    provider: pacticipant(json, 'provider'),
    version,
    interactions: interactions.map((interaction, index) => readInteraction(interaction, index, version)),
  };
}

function specificationVersion(json: Json): number {
  const metadata = isObject(json['metadata']) ? json['metadata'] : isObject(json['metaData']) ? json['metaData'] : {};
  // V2 and later write metadata.pactSpecification.version; V1 and V1.1 used the other two names.
  const named = [isObject(metadata['pactSpecification']) ? metadata['pactSpecification']['version'] : undefined, metadata['pactSpecificationVersion'], isObject(metadata['pact-specification']) ? metadata['pact-specification']['version'] : undefined];
  const written = named.find((value) => typeof value === 'string' || typeof value === 'number');
  const supported = `pact check reads Pact specification ${SUPPORTED_VERSIONS.map((major) => `V${major}`).join(', ')}`;
  if (written === undefined) fail(`the file names no Pact specification version (metadata.pactSpecification.version); ${supported}`);
  const major = Number.parseInt(String(written), 10);
  if (!(SUPPORTED_VERSIONS as readonly number[]).includes(major)) fail(`Pact specification version ${String(written)} is not supported; ${supported}`);
  return major;
}

function pacticipant(json: Json, role: 'consumer' | 'provider'): string {
  const value = json[role];
  const name = isObject(value) ? value['name'] : undefined;
  if (typeof name !== 'string' || name.trim() === '') fail(`${role}.name must be a non-empty string`);
  return name;
}

function readInteraction(value: unknown, index: number, version: number): PactInteraction {
  const at = `interactions[${index}]`;
  if (!isObject(value)) fail(`${at} must be an object`);
  const description = value['description'];
  if (typeof description !== 'string' || description.trim() === '') fail(`${at}.description must be a non-empty string`);
  const type = value['type'];
  if (version >= 4 && type !== 'Synchronous/HTTP') {
    if (typeof type !== 'string') fail(`${at}.type must be a string such as "Synchronous/HTTP"`);
    return { kind: 'other', index, description, type };
  }
  return {
    kind: 'http',
    index,
    description,
    providerStates: providerStates(value, at),
    request: readRequest(value['request'], `${at}.request`, version),
    response: readResponse(value['response'], `${at}.response`, version),
  };
}

function providerStates(interaction: Json, at: string): string[] {
  const single = interaction['providerState'] ?? interaction['provider_state'];
  if (typeof single === 'string') return [single];
  const list = interaction['providerStates'];
  if (list === undefined) return [];
  if (!Array.isArray(list) || !list.every((state) => isObject(state) && typeof state['name'] === 'string')) fail(`${at}.providerStates must be a list of {name}`);
  return list.map((state) => String((state as Json)['name']));
}

function readRequest(value: unknown, at: string, version: number): PactRequest {
  if (!isObject(value)) fail(`${at} must be an object`);
  const { method, path, query } = value;
  if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method)) fail(`${at}.method must be an HTTP method such as "POST"`);
  if (typeof path !== 'string' || !path.startsWith('/')) fail(`${at}.path must be a string starting with /`);
  const headers = readHeaders(value['headers'], `${at}.headers`);
  const body = readBody(value, at, version, headers);
  return { method: method.toUpperCase(), path, ...(query === undefined ? {} : { query: readQuery(query, `${at}.query`) }), headers, ...body };
}

function readResponse(value: unknown, at: string, version: number): PactResponse {
  if (!isObject(value)) fail(`${at} must be an object`);
  const status = value['status'];
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) fail(`${at}.status must be an HTTP status code (100 to 599)`);
  const headers = readHeaders(value['headers'], `${at}.headers`);
  return { status, headers, ...readBody(value, at, version, headers) };
}

/** Header names in lower case (HTTP names are case-insensitive); V4's value lists joined as HTTP would. */
function readHeaders(value: unknown, at: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) fail(`${at} must be an object`);
  return Object.fromEntries(
    Object.entries(value).map(([name, header]) => {
      checkName(name.toLowerCase(), at);
      if (typeof header === 'string') return [name.toLowerCase(), header];
      if (Array.isArray(header) && header.every((item) => typeof item === 'string')) return [name.toLowerCase(), header.join(', ')];
      return fail(`${at}.${name} must be a string or a list of strings`);
    }),
  );
}

function readQuery(value: unknown, at: string): string | Record<string, string[]> {
  if (typeof value === 'string') return value;
  if (!isObject(value)) fail(`${at} must be a string or an object of value lists`);
  // Null prototype: a query named __proto__ or constructor is a name like any other (misread-names.ts).
  const query = Object.create(null) as Record<string, string[]>;
  for (const [name, values] of Object.entries(value)) {
    if (typeof values === 'string') query[name] = [values];
    else if (Array.isArray(values) && values.every((item) => typeof item === 'string')) query[name] = values;
    else fail(`${at}.${name} must be a string or a list of strings`);
  }
  return query;
}

/**
 * A header name the engine misreads (misread-names.ts) is refused: no API has one, and `pact
 * export` writes no header but x-api-key and Content-Type. (Query names are judged instead.)
 */
function checkName(name: string, at: string): void {
  if (engineMisreads(name)) fail(`${at}: '${name}' cannot be checked (the name of a member of every JavaScript object, which swagger-mock-validator misreads)`);
}

/**
 * V2 and V3 write the body as its JSON value. V4 wraps it: {content, contentType, encoded}, where
 * encoded is false (content is the value), "JSON" (content is JSON text) or "base64"; its
 * contentType stands in for a missing Content-Type header (added to `headers`).
 */
function readBody(message: Json, at: string, version: number, headers: Record<string, string>): { body?: unknown } {
  if (!('body' in message) || message['body'] === undefined) return {};
  const body = message['body'];
  if (version < 4) return { body };
  if (!isObject(body)) fail(`${at}.body must be an object {content, contentType, encoded} in a V4 pact`);
  if (!('content' in body)) return {};
  const { content, contentType, encoded } = body;
  if (typeof contentType === 'string' && headers['content-type'] === undefined) headers['content-type'] = contentType;
  if (encoded === undefined || encoded === false) return { body: content };
  if (typeof content !== 'string') fail(`${at}.body.content must be a string when it is encoded`);
  const how = String(encoded).toLowerCase();
  if (how !== 'json' && how !== 'base64') fail(`${at}.body.encoded must be false, "JSON" or "base64"`);
  const text = how === 'json' ? content : Buffer.from(content, 'base64').toString('utf8');
  if (how === 'base64' && !/json/i.test(headers['content-type'] ?? '')) return { body: text };
  if (textNestsTooDeep(text)) fail(`${at}.body.content is nested more than ${MAX_PACT_DEPTH} levels deep, the most pact check reads`);
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (error) {
    return fail(`${at}.body.content is not valid JSON (${(error as Error).message})`);
  }
}
