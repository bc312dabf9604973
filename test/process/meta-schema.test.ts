// The scenario loader's two Ajv instances skip Ajv's check of the schemas they are given against
// the draft-07 meta-schema (compiling that meta-schema cost ~95 ms of CPU at every start of the
// CLI); what they are given is always what the package ships, so the check is made here, once.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIOS_DIR, readContract } from '../../src/contract/package-files.js';
import { readScenarioSchema } from '../../src/scenarios/load-scenarios.js';

describe('the schemas the scenario loader compiles without a meta-schema check', () => {
  const metaCheck = (schema: object): string => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    return ajv.validateSchema(schema) ? 'valid' : ajv.errorsText();
  };

  it('openapi.yaml, as ContractRules adds it, is a valid draft-07 schema', () => {
    expect(metaCheck(readContract().document as object)).toBe('valid');
  });

  it('scenarios/scenario.schema.json, as ScenarioParser compiles it, is a valid draft-07 schema', () => {
    expect(metaCheck(readScenarioSchema(DEFAULT_SCENARIOS_DIR))).toBe('valid');
  });

  it('a schema that is not one is caught by this check', () => {
    expect(metaCheck({ type: 'objekt', required: 'name' })).not.toBe('valid');
  });
});
