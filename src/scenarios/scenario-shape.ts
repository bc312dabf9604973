// The shape check of a scenario file (scenarios/scenario.schema.json): Ajv's standalone code for
// the package's schema, generated ahead of time (scenario-shape-validator.ts, written by
// `npm run gen:scenario-schema` with ScenarioParser's own Ajv options), used when the schema's
// text is the one it was made from; any other text (an edited schema) is compiled, as before.
// Why: compiling the schema was ~42 ms of the CPU of every cold start (counted during the
// built-in scenarios' load; the generated module loads in ~2 ms), and every start loads it.
// test/process/scenario-shape-validator.test.ts checks that the generated code is current and gives the
// same errors as a compile on broken files.
import type { ValidateFunction } from 'ajv';
import { textDigest } from '../contract/text-digest.js';
import { compileShape } from './parse-scenario.js';
import { SCHEMA_DIGEST, validate } from './scenario-shape-validator.js';

export function shapeValidator(schemaText: string): ValidateFunction {
  return textDigest(schemaText) === SCHEMA_DIGEST ? (validate as unknown as ValidateFunction) : compileShape(JSON.parse(schemaText) as object);
}
