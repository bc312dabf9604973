// Where the package's own files are, found from this module's location so that they resolve the
// same from src/ (tests) and dist/src/ (the CLI), and its version. Apart from package-files.ts
// (which re-exports all of it) so that --version and --help load no YAML parser.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
