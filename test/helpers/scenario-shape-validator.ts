// Writes src/scenarios/scenario-shape-validator.ts (`npm run gen:scenario-schema`): Ajv's own
// standalone code (ajv/dist/standalone) for scenarios/scenario.schema.json, compiled with the
// options ScenarioParser's compile uses (SHAPE_AJV_OPTIONS), with the SHA-256 of the schema's text
// it was made from (scenario-shape.ts says why and when it is used).
// test/process/scenario-shape-validator.test.ts checks it is current and gives the same errors as a compile.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { DEFAULT_SCENARIOS_DIR, PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { SHAPE_AJV_OPTIONS } from '../../src/scenarios/parse-scenario.js';
import { textDigest } from '../../src/contract/text-digest.js';

// CommonJS: its module.exports is the function, and carries it again as .default (what TypeScript types).
const standaloneCode = standaloneModule.default;

export const SHAPE_VALIDATOR_FILE = join(PACKAGE_ROOT, 'src', 'scenarios', 'scenario-shape-validator.ts');
export const SCENARIO_SCHEMA_FILE = join(DEFAULT_SCENARIOS_DIR, 'scenario.schema.json');

export function renderShapeValidator(schemaText = readFileSync(SCENARIO_SCHEMA_FILE, 'utf8')): string {
  // The meta-schema check is left on here (it does not change the code): a broken schema fails the generator.
  const ajv = new Ajv({ ...SHAPE_AJV_OPTIONS, code: { source: true, esm: true, lines: true } });
  const code = standaloneCode(ajv, ajv.compile(JSON.parse(schemaText) as object));
  return [
    '// @ts-nocheck',
    '// Written by `npm run gen:scenario-schema` (test/helpers/scenario-shape-validator.ts); never edited by hand.',
    "// Ajv's standalone code for scenarios/scenario.schema.json (the text whose SHA-256 is SCHEMA_DIGEST),",
    "// compiled with ScenarioParser's options; scenario-shape.ts says why. Ajv's ES module output still",
    '// loads its runtime helpers with require(), hence the createRequire.',
    "import { createRequire } from 'node:module';",
    '',
    'const require = createRequire(import.meta.url);',
    `export const SCHEMA_DIGEST = ${JSON.stringify(textDigest(schemaText))};`,
    '',
    code.trim(),
    '',
  ].join('\n');
}

if (process.argv.includes('--write')) writeFileSync(SHAPE_VALIDATOR_FILE, renderShapeValidator());
