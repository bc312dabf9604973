// The Link fields a contract FILE adds (src/core/contract-classes.ts), made from their schemas: a
// value is the schema's `example`/`examples` first, else what openapi-sampler makes of its
// `format`, `enum`, `min*`/`max*` (it is deterministic); a `pattern` it cannot honour is drawn with
// randexp under the seed and the link's id. Each value is checked against FILE's schema of the field;
// a field no draw satisfies (an unsatisfiable pattern, say) refuses the start instead of a 500 later.
// A new link stores its values (LinkRecord.extra); a link stored before has them made the same way
// on each answer (the same seed and id: the same value), and the fields FILE removed are not shown.
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ContractClasses } from '../core/contract-classes.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import type { LinkShape } from '../core/link-shape.js';
import { schemaAt } from '../core/schema-pointer.js';

const require = createRequire(import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Draws of a pattern tried for one value before the field is taken for one the mock cannot make. */
export const MAX_FIELD_DRAWS = 8;

interface NewField {
  name: string;
  pointer: string;
  /** A request sends it too (createLink/updateLink): the sent value is stored. */
  fromRequest: boolean;
  make: (key: string) => unknown;
}

/** The shape of Links under FILE, or undefined when FILE adds and removes no Link field (nothing to do per answer). */
export function linkShapeOf(document: OpenApiDocument, classes: ContractClasses, seed: number): LinkShape | undefined {
  const linkFields = classes.fields.filter((field) => field.of === 'Link');
  if (linkFields.length === 0) return undefined;
  const ajv = addFormats(new Ajv({ strict: false, allErrors: false, validateSchema: false }));
  ajv.addSchema(document as object, 'contract');
  const sent = new Set(classes.fields.filter((field) => field.served === 'request').map((field) => field.name));
  const fields: NewField[] = linkFields
    .filter((field) => field.served === 'generated')
    .map((field) => ({ name: field.name, pointer: field.pointer, fromRequest: sent.has(field.name), make: fieldMaker(document, ajv, field.pointer, seed) }));
  const gone = linkFields.filter((field) => field.served === 'gone').map((field) => field.name);
  return shapeOf(fields, gone);
}

/** Why a field of FILE cannot be made, checked at start on a few link ids; undefined when each can. */
export function linkFieldProblem(document: OpenApiDocument, classes: ContractClasses): string | undefined {
  try {
    const shape = linkShapeOf(document, classes, 0);
    for (let probe = 0; probe < MAX_FIELD_DRAWS; probe++) shape?.created({}, `lnk_probe${probe}`);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function shapeOf(fields: NewField[], gone: string[]): LinkShape {
  const made = (linkId: string): Record<string, unknown> => Object.fromEntries(fields.map((field) => [field.name, field.make(`${linkId}\0${field.name}`)]));
  return {
    created: (input, linkId) => {
      const values = made(linkId);
      for (const field of fields) if (field.fromRequest && input[field.name] !== undefined) values[field.name] = input[field.name];
      return values;
    },
    updated: (input) => {
      const sent = fields.filter((field) => field.fromRequest && input[field.name] !== undefined);
      return sent.length === 0 ? undefined : Object.fromEntries(sent.map((field) => [field.name, input[field.name]]));
    },
    shown: (link, record) => {
      const shown: Record<string, unknown> = { ...link };
      for (const name of gone) delete shown[name];
      // Only FILE's fields, each as stored, else made as a new link's would be: a link stored before
      // FILE was served (or before --watch swapped in a FILE that adds the field) has no value of its
      // own, and a value stored for a field an earlier FILE had and this one lacks is not shown.
      const { extra } = record;
      for (const field of fields) shown[field.name] = extra !== undefined && Object.hasOwn(extra, field.name) ? extra[field.name] : field.make(`${record.id}\0${field.name}`);
      return shown as typeof link;
    },
  };
}

/** The maker of one field's values by key, each checked against its schema in FILE. */
function fieldMaker(document: OpenApiDocument, ajv: Ajv, pointer: string, seed: number): (key: string) => unknown {
  const schema = schemaAt(document, { $ref: `#${pointer}` }, pointer);
  if (!schema) throw new Error(`cannot make Link field ${pointer}: its schema names nothing`);
  const validate = ajv.compile({ $ref: `contract#${pointer}` });
  const { sample } = require('openapi-sampler') as typeof import('openapi-sampler');
  const sampled = sample(schema.schema as never, { skipReadOnly: false, skipWriteOnly: true, quiet: true }, document);
  const pattern = typeof schema.schema['pattern'] === 'string' ? schema.schema['pattern'] : undefined;
  if (validate(sampled)) return () => sampled;
  if (!pattern) throw new Error(unmade(pointer, validate));
  return (key) => drawn(pattern, validate, pointer, seed, key);
}

function drawn(pattern: string, validate: ValidateFunction, pointer: string, seed: number, key: string): string {
  const RandExp = require('randexp') as typeof import('randexp');
  const random = seededRandom(`${seed}\0${key}`);
  for (let draw = 0; draw < MAX_FIELD_DRAWS; draw++) {
    const generator = new RandExp(pattern);
    generator.max = 16;
    generator.randInt = (from, to) => from + Math.floor(random() * (to - from + 1));
    const value = generator.gen();
    if (validate(value)) return value;
  }
  throw new Error(unmade(pointer, validate));
}

function unmade(pointer: string, validate: ValidateFunction): string {
  const first = validate.errors?.[0];
  return `cannot make a value of the Link field at ${pointer} that its schema allows (${first ? `${first.instancePath || 'value'} ${first.message ?? 'invalid'}` : 'invalid'}): give it an example`;
}

/** A PRNG (mulberry32) seeded by a text's FNV-1a hash: the same seed and link give the same value. */
function seededRandom(text: string): () => number {
  let state = 2166136261;
  for (let index = 0; index < text.length; index++) state = Math.imul(state ^ text.charCodeAt(index), 16777619);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
