// Writes src/contract/parsed-contracts.ts (`npm run gen:contracts`): the document js-yaml parses
// from each contract the package ships (openapi.yaml, src/admin/openapi.yaml), as JSON under the
// SHA-256 of its text (src/contract/contract-yaml.ts says why). A value JSON cannot carry exactly
// is left out: that file is then parsed at start, as any other.
// test/process/contract-parse.test.ts checks it is current.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { loadWithJsYaml } from '../../src/contract/contract-yaml.js';
import { ADMIN_CONTRACT_FILE, CONTRACT_FILE, PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { textDigest } from '../../src/contract/text-digest.js';

export const PARSED_CONTRACTS_FILE = join(PACKAGE_ROOT, 'src', 'contract', 'parsed-contracts.ts');
export const SHIPPED_CONTRACTS = [CONTRACT_FILE, ADMIN_CONTRACT_FILE];

export function renderParsedContracts(files = SHIPPED_CONTRACTS): string {
  const entries: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const json = JSON.stringify(loadWithJsYaml(text));
    if (json === undefined || !isDeepStrictEqual(JSON.parse(json), loadWithJsYaml(text))) continue;
    entries.push(`  // ${relative(PACKAGE_ROOT, file)}\n  ${JSON.stringify(textDigest(text))}: ${JSON.stringify(json)},`);
  }
  return [
    '// Written by `npm run gen:contracts` (test/helpers/parsed-contracts.ts); never edited by hand.',
    '// The document js-yaml parses from each contract the package ships, as JSON, by the SHA-256 of',
    '// its text (contract-yaml.ts).',
    'export const PARSED_CONTRACTS: Readonly<Record<string, string>> = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}

if (process.argv.includes('--write')) writeFileSync(PARSED_CONTRACTS_FILE, renderParsedContracts());
