// The shape check of a scenario file (scenarios/scenario.schema.json): Ajv's standalone code for
// the package's schema, generated ahead of time (scenario-shape-validator.ts, written by
// `npm run gen:scenario-schema` with ScenarioParser's own Ajv options), used when the schema's
// text is the one it was made from; any other text (an edited schema) is compiled, as before.
// Why: every start builds this check, and compiling the schema cost 21-24 ms of a cold start's CPU
// (ScenarioParser's constructor, measured by process.cpuUsage in the built CLI's order; ~42 ms
// when Ajv's compiles were counted during the built-in scenarios' load); loading the generated
// module costs 3-4 ms.
// test/process/scenario-shape-validator.test.ts checks that the generated code is current and gives the
// same errors as a compile on broken files.
import type { ValidateFunction } from 'ajv';
import { textDigest } from '../contract/text-digest.js';
import { compileShape } from './parse-scenario.js';
import { SCHEMA_DIGEST, validate } from './scenario-shape-validator.js';

export function shapeValidator(schemaText: string): ValidateFunction {
  return textDigest(schemaText) === SCHEMA_DIGEST ? (validate as unknown as ValidateFunction) : compileShape(JSON.parse(schemaText) as object);
}
