// The files that ship with the package (openapi.yaml, fixtures/, scenarios/), found from this
// module's own location so that they resolve the same from src/ (tests) and dist/src/ (the CLI).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import type { Contract } from './app.js';
import type { OpenApiDocument } from './http/operation-table.js';
import { parseFixtureSpec, type FixtureSpec } from '../fixtures/fixture-spec.js';

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('shortlink-mock: package.json not found above ' + import.meta.url);
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findPackageRoot();
export const CONTRACT_FILE = join(PACKAGE_ROOT, 'openapi.yaml');
export const DEFAULT_FIXTURES_FILE = join(PACKAGE_ROOT, 'fixtures', 'accounts.json');
export const DEFAULT_SCENARIOS_DIR = join(PACKAGE_ROOT, 'scenarios');
export const ADMIN_CONTRACT_FILE = join(PACKAGE_ROOT, 'src', 'admin', 'openapi.yaml');
export const CONSOLE_DIR = join(PACKAGE_ROOT, 'src', 'admin', 'console');

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export function readContract(file = CONTRACT_FILE): Contract {
  const text = readFileSync(file, 'utf8');
  return { text, document: parse(text) as OpenApiDocument };
}

const API_SCHEMA_REF = /^\.\.\/\.\.\/openapi\.yaml#\/components\/schemas\//;

/**
 * The admin API's document, bundled: its references to the API's schemas (written as file
 * references so that the file lints on its own) become local, and the API's schemas are copied in.
 */
export function readAdminContract(api: Contract = readContract(), file = ADMIN_CONTRACT_FILE): Contract {
  const document = parse(readFileSync(file, 'utf8')) as OpenApiDocument & { components: { schemas: Record<string, unknown> } };
  const localized = JSON.parse(JSON.stringify(document), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' ? value.replace(API_SCHEMA_REF, '#/components/schemas/') : value,
  ) as typeof document;
  const apiSchemas = (api.document['components'] as { schemas: Record<string, unknown> }).schemas;
  localized.components.schemas = { ...apiSchemas, ...localized.components.schemas };
  return { document: localized, text: stringify(localized) };
}

export function readFixtureSpec(file = DEFAULT_FIXTURES_FILE): FixtureSpec {
  return parseFixtureSpec(JSON.parse(readFileSync(file, 'utf8')));
}
