// Whether .gitignore's rules ignore a path of the repository (relative to its root), by the rules
// alone: the file need not exist (`git check-ignore --no-index`).
import { spawnSync } from 'node:child_process';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';

export function ignoredByGit(path: string): boolean {
  const result = spawnSync('git', ['check-ignore', '--quiet', '--no-index', '--', path], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  if (result.status === 0 || result.status === 1) return result.status === 0;
  throw new Error(`git check-ignore ${path} failed (${String(result.status)}): ${result.stderr || String(result.error)}`);
}
