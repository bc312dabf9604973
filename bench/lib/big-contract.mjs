// A large next contract for timing a start with --contract (issue 38, "Measure"): the shipped
// openapi.yaml (createLink, updateLink, deleteLink) plus 197 realistic operations a provider might
// add (a list, a create and a read of one for each of 66 resources, minus one read), each with a
// schema of its own (typed, described properties with examples), about 1 MiB of YAML in all.
// Deterministic: the same bytes every time (no clock, no randomness), so every run times one file.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const SHIPPED = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
export const BIG_CONTRACT_OPERATIONS = 200;
export const BIG_CONTRACT_TARGET_BYTES = 1024 * 1024;
const RESOURCES = 66;
const KINDS = [
  { type: 'string', example: (i) => `value-${i}` },
  { type: 'integer', minimum: 0, example: (i) => i },
  { type: 'string', format: 'date-time', example: (i) => `2027-01-${String((i % 28) + 1).padStart(2, '0')}T10:00:00.000Z` },
  { type: 'boolean', example: (i) => i % 2 === 0 },
  { type: 'string', enum: ['draft', 'active', 'archived'], example: () => 'active' },
  { type: 'number', minimum: 0, example: (i) => i / 4 },
];

function property(resource, index) {
  const { example, ...kind } = KINDS[(resource + index) % KINDS.length];
  return { ...kind, description: `Field ${index} of resource ${resource}: a documented attribute the provider added in the next version of the API.`, example: example(index) };
}

function schema(resource, fields) {
  const properties = { id: { type: 'string', description: 'Its identifier.', example: `res${resource}_1` } };
  for (let index = 0; index < fields; index += 1) properties[`field${index}`] = property(resource, index);
  return { type: 'object', additionalProperties: false, required: ['id', 'field0'], properties };
}

const ok = (status, description, ref) => ({ [status]: { description, content: { 'application/json': { schema: ref } } } });
const errors = { '401': { $ref: '#/components/responses/Unauthorized' } };

/** The contract with `fields` properties per resource schema. */
export function bigContract(fields) {
  const document = YAML.parse(readFileSync(SHIPPED, 'utf8'));
  document.info.version = '0.1.0-big';
  for (let resource = 0; resource < RESOURCES; resource += 1) {
    const name = `Resource${resource}`;
    const ref = { $ref: `#/components/schemas/${name}` };
    document.components.schemas[name] = schema(resource, fields);
    const base = `/resources${resource}`;
    document.paths[base] = {
      get: { operationId: `list${name}`, summary: `List ${name}`, tags: ['resources'], responses: { ...ok('200', `The ${name} items.`, { type: 'array', maxItems: 100, items: ref }), ...errors } },
      post: { operationId: `create${name}`, summary: `Create a ${name}`, tags: ['resources'], requestBody: { required: true, content: { 'application/json': { schema: ref } } }, responses: { ...ok('201', `The ${name} created.`, ref), ...errors } },
    };
    // 3 × 66 = 198 new operations; one read left out: 197, and with the shipped three, 200.
    if (resource === RESOURCES - 1) continue;
    document.paths[`${base}/{resourceId}`] = {
      get: { operationId: `get${name}`, summary: `Read a ${name}`, tags: ['resources'], parameters: [{ name: 'resourceId', in: 'path', required: true, schema: { type: 'string' } }], responses: { ...ok('200', `The ${name}.`, ref), ...errors } },
    };
  }
  return YAML.stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** Writes the contract to `file`: the fewest fields per schema that reach 1 MiB. Returns its size and operation count. */
export function writeBigContract(file) {
  // The size grows linearly with the fields: two sizes give the estimate, then a step or two up.
  const [small, large] = [bigContract(1), bigContract(11)].map((text) => Buffer.byteLength(text));
  let fields = Math.max(1, Math.floor(1 + ((BIG_CONTRACT_TARGET_BYTES - small) * 10) / (large - small)));
  let text = bigContract(fields);
  for (let step = 0; Buffer.byteLength(text) < BIG_CONTRACT_TARGET_BYTES && step < 10; step += 1) text = bigContract((fields += 1));
  writeFileSync(file, text);
  const operations = Object.values(YAML.parse(text).paths).reduce((count, item) => count + Object.keys(item).filter((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key)).length, 0);
  return { bytes: Buffer.byteLength(text), operations, fields };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? 'big-contract.yaml';
  const { bytes, operations, fields } = writeBigContract(file);
  console.log(`wrote ${file}: ${bytes} bytes, ${operations} operations (${fields} fields per resource schema)`);
}
