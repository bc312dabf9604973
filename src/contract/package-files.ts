// The files that ship with the package (openapi.yaml, the admin document, fixtures/), read and
// parsed; where they are is package-root.ts's (re-exported here).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Contract, OpenApiDocument } from '../core/contract-types.js';
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

const API_SCHEMA_REF = /^\.\.\/\.\.\/openapi\.yaml#\/components\/schemas\//;

/**
 * The admin API's document, bundled: its references to the API's schemas (written as file
 * references so that the file lints on its own) become local, and the API's schemas are copied in.
 */
export function readAdminContract(api: Contract = readContract(), file = ADMIN_CONTRACT_FILE): Contract {
  const document = parseContractYaml(readFileSync(file, 'utf8')) as OpenApiDocument & { components: { schemas: Record<string, unknown> } };
  const localized = JSON.parse(JSON.stringify(document), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' ? value.replace(API_SCHEMA_REF, '#/components/schemas/') : value,
  ) as typeof document;
  const apiSchemas = (api.document['components'] as { schemas: Record<string, unknown> }).schemas;
  localized.components.schemas = { ...apiSchemas, ...localized.components.schemas };
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
