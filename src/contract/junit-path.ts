// --junit FILE is written after the run, which can take minutes: a path that cannot be written is
// found before the first request instead. Missing directories are fine (they are created when the
// file is written, as CI's `--junit reports/contract.xml` expects), so the question is whether the
// nearest directory that exists lets us create them. Only access() and stat(): the check itself
// creates nothing, so it never leaves a file or directory behind.
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Why FILE cannot be written, or undefined when it can. */
export function junitPathProblem(file: string): string | undefined {
  const path = resolve(file);
  const stats = statOf(path);
  if (stats?.isDirectory()) return `${path} is a directory`;
  if (stats) return writable(path, constants.W_OK, `${path} is not writable`);
  let ancestor = dirname(path);
  // Bounded: each step is one path segment shorter, and the root ends it.
  while (!statOf(ancestor)) {
    if (dirname(ancestor) === ancestor) return `${ancestor} does not exist`;
    ancestor = dirname(ancestor);
  }
  if (!statOf(ancestor)?.isDirectory()) return `${ancestor} is not a directory`;
  return writable(ancestor, constants.W_OK | constants.X_OK, `cannot create files in ${ancestor}`);
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function writable(path: string, mode: number, reason: string): string | undefined {
  try {
    accessSync(path, mode);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `${reason}${code ? ` (${code})` : ''}`;
  }
}
