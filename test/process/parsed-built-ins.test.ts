// A start takes the built-in scenario files' values from src/scenarios/parsed-built-ins.ts (by the
// SHA-256 of their text: scenario-yaml.ts) instead of loading `yaml` to parse them. This fails when
// a built-in file changed and `npm run gen:scenarios` was forgotten (the start would still be
// right, only slower), and checks that a text the table knows gives what `yaml` parses from it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIOS_DIR } from '../../src/contract/package-files.js';
import { textDigest } from '../../src/contract/text-digest.js';
import { PARSED_BUILT_INS } from '../../src/scenarios/parsed-built-ins.js';
import { parseScenarioYaml } from '../../src/scenarios/scenario-yaml.js';
import { PARSED_BUILT_INS_FILE, renderParsedBuiltIns } from '../helpers/parsed-built-ins.js';

describe('the parsed built-in scenario files', () => {
  it('src/scenarios/parsed-built-ins.ts is what gen:scenarios writes today', () => {
    expect(readFileSync(PARSED_BUILT_INS_FILE, 'utf8'), 'run `npm run gen:scenarios` and commit the result').toBe(renderParsedBuiltIns());
  });

  const files = readdirSync(DEFAULT_SCENARIOS_DIR).filter((name) => /\.ya?ml$/.test(name));
  it.each(files)('scenarios/%s: known by its text, and the same value as yaml parses', (file) => {
    const text = readFileSync(join(DEFAULT_SCENARIOS_DIR, file), 'utf8');
    expect(PARSED_BUILT_INS[textDigest(text)]).toBeDefined();
    expect(parseScenarioYaml(text)).toStrictEqual(parse(text));
  });

  it('a text it does not know (one character changed) is parsed by yaml, errors included', () => {
    const text = readFileSync(join(DEFAULT_SCENARIOS_DIR, 'slow.yaml'), 'utf8');
    const edited = `${text}\n# edited\n`;
    expect(PARSED_BUILT_INS[textDigest(edited)]).toBeUndefined();
    expect(parseScenarioYaml(edited)).toStrictEqual(parse(edited));
    expect(() => parseScenarioYaml('name: [unclosed')).toThrow(/unclosed|Flow sequence|Missing/i);
  });
});
