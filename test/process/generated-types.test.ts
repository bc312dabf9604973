// The TypeScript types of the API are generated from openapi.yaml; this fails when someone edits
// the contract and forgets `npm run gen:types`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';

const dir = mkdtempSync(join(tmpdir(), 'slm-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('src/generated/openapi.ts is what openapi-typescript makes of openapi.yaml today', () => {
  const fresh = join(dir, 'openapi.ts');
  const bin = join(PACKAGE_ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
  execFileSync(process.execPath, [bin, 'openapi.yaml', '-o', fresh], { cwd: PACKAGE_ROOT, stdio: 'pipe' });
  const committed = readFileSync(join(PACKAGE_ROOT, 'src', 'generated', 'openapi.ts'), 'utf8');
  expect(committed, 'run `npm run gen:types` and commit the result').toBe(readFileSync(fresh, 'utf8'));
});
