// A start checks scenario files' shape with Ajv's standalone code generated ahead of time for
// scenarios/scenario.schema.json (src/scenarios/scenario-shape.ts), not with a compile of the
// schema. This fails when the schema changed and `npm run gen:scenario-schema` was forgotten (the
// start would still be right, only slower: another text is compiled), and shows on broken files
// that the generated code and a compile give the same errors, field by field, and so the same
// refusal message.
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { readContract } from '../../src/contract/package-files.js';
import { ContractRules } from '../../src/scenarios/contract-rules.js';
import { compileShape, ScenarioParser } from '../../src/scenarios/parse-scenario.js';
import { shapeValidator } from '../../src/scenarios/scenario-shape.js';
import { validate } from '../../src/scenarios/scenario-shape-validator.js';
import { renderShapeValidator, SCENARIO_SCHEMA_FILE, SHAPE_VALIDATOR_FILE } from '../helpers/scenario-shape-validator.js';

const schemaText = readFileSync(SCENARIO_SCHEMA_FILE, 'utf8');
// The generated module is not type-checked (@ts-nocheck): Ajv's own type for what it generates.
const generated = validate as unknown as ValidateFunction;

describe('the generated scenario shape validator', () => {
  it('src/scenarios/scenario-shape-validator.ts is what gen:scenario-schema writes today', () => {
    expect(readFileSync(SHAPE_VALIDATOR_FILE, 'utf8'), 'run `npm run gen:scenario-schema` and commit the result').toBe(renderShapeValidator());
  });

  it('is used for the schema text it was made from, and any other text is compiled', () => {
    const edited = schemaText.replace('"minItems": 1, "items": { "$ref": "#/definitions/rule" }', '"minItems": 2, "items": { "$ref": "#/definitions/rule" }');
    expect(edited).not.toBe(schemaText);
    expect(shapeValidator(schemaText)).toBe(generated);
    const compiled = shapeValidator(edited);
    expect(compiled).not.toBe(generated);
    // The edit is in force: one rule is now too few.
    expect(compiled({ name: 'a', description: 'd', rules: [{ match: { operation: 'createLink' }, error: 'not-found' }] })).toBe(false);
    // And the staleness check above would fail: what the generator writes for it is another file.
    expect(renderShapeValidator(edited)).not.toBe(readFileSync(SHAPE_VALIDATOR_FILE, 'utf8'));
  });
});

const rule = { match: { operation: 'createLink' }, error: 'not-found' };
const scenario = (fields: Record<string, unknown>): Record<string, unknown> => ({ name: 'broken', description: 'a broken scenario', rules: [rule], ...fields });
const withRule = (extra: Record<string, unknown>): Record<string, unknown> => scenario({ rules: [rule, extra] });

const CASES: [string, unknown][] = [
  ['a valid file', scenario({})],
  ['every action and field, valid', scenario({ $schema: 'x', rules: [{ match: { operation: ['createLink', 'updateLink'], headers: { 'X-A': 'b' }, body: { a: 1 }, account: 'k' }, respond: { status: 404, body: { errorDescription: 'x' } }, delay: { min: 1, max: 2 }, times: 3 }, { match: { operation: '*' }, fault: 'no-response' }, { match: { operation: 'deleteLink' }, delay: 5 }] })],
  ['not an object: null', null],
  ['not an object: an array', [scenario({})]],
  ['not an object: a string', 'name: broken'],
  ['empty', {}],
  ['missing name', { description: 'd', rules: [rule] }],
  ['a name the pattern refuses', scenario({ name: 'Bad Name' })],
  ['a name of 64 characters', scenario({ name: `a${'b'.repeat(63)}` })],
  ['a name with an astral character', scenario({ name: 'a😀' })],
  ['a number as name', scenario({ name: 12 })],
  ['an empty description', scenario({ description: '' })],
  ['a description of one astral character', scenario({ description: '😀' })],
  ['an unknown top-level field', scenario({ extra: true, other: 1 })],
  ['no rules', scenario({ rules: [] })],
  ['rules not a list', scenario({ rules: { match: {} } })],
  ['a rule that is not an object', scenario({ rules: [rule, 'x'] })],
  ['a rule that does nothing', withRule({ match: { operation: 'createLink' } })],
  ['a rule with no match', withRule({ error: 'not-found' })],
  ['an unknown rule field', withRule({ ...rule, then: 1 })],
  ['respond and fault together', withRule({ match: { operation: 'createLink' }, fault: 'connection-reset', respond: { status: 404, body: { errorDescription: 'x' } } })],
  ['error and respond together', withRule({ ...rule, respond: { status: 404, body: {} } })],
  ['error, respond and fault together', withRule({ ...rule, respond: { status: 404, body: {} }, fault: 'empty-response' })],
  ['an unknown error', withRule({ match: { operation: 'createLink' }, error: 'teapot' })],
  ['an unknown fault', withRule({ match: { operation: 'createLink' }, fault: 'meltdown' })],
  ['times 0', withRule({ ...rule, times: 0 })],
  ['times 1.5', withRule({ ...rule, times: 1.5 })],
  ['times as a string', withRule({ ...rule, times: '2' })],
  ['a negative delay', withRule({ match: { operation: 'createLink' }, delay: -1 })],
  ['a delay over 600000', withRule({ match: { operation: 'createLink' }, delay: 600_001 })],
  ['a delay range without max', withRule({ match: { operation: 'createLink' }, delay: { min: 1 } })],
  ['a delay range with an extra field', withRule({ match: { operation: 'createLink' }, delay: { min: 1, max: 2, mean: 1 } })],
  ['a delay as a string', withRule({ match: { operation: 'createLink' }, delay: 'slow' })],
  ['an empty operation', withRule({ ...rule, match: { operation: '' } })],
  ['an empty operation list', withRule({ ...rule, match: { operation: [] } })],
  ['a number in the operation list', withRule({ ...rule, match: { operation: ['createLink', 1] } })],
  ['a match with an unknown field', withRule({ ...rule, match: { operation: 'createLink', path: '/links' } })],
  ['a header that is not a string', withRule({ ...rule, match: { operation: 'createLink', headers: { 'x-a': 1 } } })],
  ['a body that is a list', withRule({ ...rule, match: { operation: 'createLink', body: [1] } })],
  ['an empty account', withRule({ ...rule, match: { operation: 'createLink', account: '' } })],
  ['a respond with no body', withRule({ match: { operation: 'createLink' }, respond: { status: 404 } })],
  ['a status under 100', withRule({ match: { operation: 'createLink' }, respond: { status: 99, body: {} } })],
  ['a status over 599', withRule({ match: { operation: 'createLink' }, respond: { status: 600, body: {} } })],
  ['a status as a string', withRule({ match: { operation: 'createLink' }, respond: { status: '404', body: {} } })],
  ['many errors at once', { name: '', rules: [{ match: {}, fault: 'x', error: 'y', delay: {}, times: -1 }, null], extra: 1 }],
];

describe('the generated validator and a compile of the schema give the same errors', () => {
  const compiled = compileShape(JSON.parse(schemaText) as object);
  const contract = new ContractRules(readContract().document);
  const refusal = (validate: ValidateFunction, raw: unknown): string => {
    try {
      new ScenarioParser(validate, contract).parse(raw, 'broken.yaml');
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it.each(CASES)('%s', (_name, raw) => {
    const fromCompile = { valid: compiled(raw), errors: compiled.errors };
    const fromGenerated = { valid: generated(raw), errors: generated.errors };
    expect(fromGenerated).toStrictEqual(fromCompile);
    expect(refusal(generated, raw)).toBe(refusal(compiled, raw));
  });

  it('the cases include valid files and refusals of each kind describeShapeError words apart', () => {
    const messages = CASES.map(([, raw]) => refusal(compiled, raw));
    // One astral character is one character to Ajv (its ucs2length runtime helper, which the generated code requires).
    expect(CASES.filter((_, i) => messages[i] === 'accepted').map(([name]) => name)).toEqual(['a valid file', 'every action and field, valid', 'a description of one astral character']);
    for (const reason of [/exclude each other/, /needs one of error, respond, fault or delay/, /unknown field 'extra'/, /must be one of connection-reset/, /must match pattern/, /must be >= 1/]) {
      expect(messages.some((message) => reason.test(message)), String(reason)).toBe(true);
    }
  });
});
