// The files that ship with the package (openapi.yaml, the admin document, fixtures/), read and
// parsed; where they are is package-root.ts's (re-exported here).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Contract, OpenApiDocument } from '../core/contract-types.js';
import { bundledAdminDocument } from './admin-document.js';
import { parseFixtureSpec, type FixtureSpec } from '../../fixtures/fixture-spec.js';
import { parseContractYaml } from './contract-yaml.js';
import { ADMIN_CONTRACT_FILE, CONTRACT_FILE, DEFAULT_FIXTURES_FILE } from './package-root.js';

const require = createRequire(import.meta.url);

export { ADMIN_CONTRACT_FILE, CONSOLE_DIR, CONTRACT_FILE, DEFAULT_FIXTURES_FILE, DEFAULT_SCENARIOS_DIR, PACKAGE_ROOT, packageVersion } from './package-root.js';

export function readContract(file = CONTRACT_FILE): Contract {
  return contractOf(readFileSync(file, 'utf8'));
}

/** A contract from its text, already read. */
export function contractOf(text: string): Contract {
  return { text, document: parseContractYaml(text) as OpenApiDocument };
}

/**
 * The admin API's document, bundled for the contract `api` served (admin-document.ts says which of
 * the API's schemas it takes from `api` and which from the shipped contract).
 */
export function readAdminContract(api?: Contract, file = ADMIN_CONTRACT_FILE, shipped?: Contract): Contract {
  const served = api ?? readContract();
  const document = parseContractYaml(readFileSync(file, 'utf8')) as Parameters<typeof bundledAdminDocument>[0];
  const localized = bundledAdminDocument(document, served, shipped ?? (api ? readContract() : served));
  // The text is written when first read (GET /__admin/openapi.yaml), not at every start: ~45 ms;
  // `yaml` is loaded then too (a start that loads no other YAML than the contracts does not load it).
  let text: string | undefined;
  return {
    document: localized,
    get text() {
      return (text ??= (require('yaml') as typeof import('yaml')).stringify(localized));
    },
  };
}

export function readFixtureSpec(file = DEFAULT_FIXTURES_FILE): FixtureSpec {
  return parseFixtureSpec(JSON.parse(readFileSync(file, 'utf8')));
}
