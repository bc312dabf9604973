// Writes src/scenarios/parsed-built-ins.ts (`npm run gen:scenarios`): the value `yaml` parses from
// each scenario file the package ships, as JSON under the SHA-256 of its text (scenario-yaml.ts
// says why). A value JSON cannot carry exactly (-0, NaN, undefined) is left out: that file is
// then parsed at start, as any other. test/process/parsed-built-ins.test.ts checks it is current.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { DEFAULT_SCENARIOS_DIR, PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { textDigest } from '../../src/contract/text-digest.js';

export const PARSED_BUILT_INS_FILE = join(PACKAGE_ROOT, 'src', 'scenarios', 'parsed-built-ins.ts');

export function renderParsedBuiltIns(dir = DEFAULT_SCENARIOS_DIR): string {
  const entries: string[] = [];
  for (const file of readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)).sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    const json = JSON.stringify(parse(text));
    if (json === undefined || !isDeepStrictEqual(JSON.parse(json), parse(text))) continue;
    entries.push(`  // scenarios/${file}\n  ${JSON.stringify(textDigest(text))}: ${JSON.stringify(json)},`);
  }
  return [
    '// Written by `npm run gen:scenarios` (test/helpers/parsed-built-ins.ts); never edited by hand.',
    "// The value `yaml` parses from each scenario file the package ships, as JSON, by the SHA-256 of",
    '// its text (scenario-yaml.ts).',
    'export const PARSED_BUILT_INS: Readonly<Record<string, string>> = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}

if (process.argv.includes('--write')) writeFileSync(PARSED_BUILT_INS_FILE, renderParsedBuiltIns());
