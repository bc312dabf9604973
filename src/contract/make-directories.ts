// `mkdirSync(dir, { recursive: true })` without its hang: on Node 20 (20.20.2 here), a recursive
// mkdir under a directory that refuses new entries without the usual errors (`/proc/nope/x`) never
// returns, spinning a core (a black-box sweep: `--junit /proc/nope/x.xml`, `--out /proc/…` and
// `MOCK_DB=/proc/x/db.json` hung for good). Here the missing directories are made one at a time,
// top down, each with a plain mkdir, which fails as the kernel says (ENOENT, EACCES, ENOTDIR).
// It lives in src/contract, the lowest layer that may touch files and that the commands and the
// process both import (.dependency-cruiser.cjs).
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Makes `dir` and any missing parent; the first directory it made, or undefined when `dir` was there (as mkdirSync's recursive form answers). */
export function makeDirectories(dir: string): string | undefined {
  const missing: string[] = [];
  // Bounded by the path's depth: each step goes one directory up, and the root is its own parent.
  for (let at = resolve(dir); ; at = dirname(at)) {
    const found = statOrMissing(at);
    if (found === 'missing') missing.push(at);
    else if (!found.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR' });
    if (found !== 'missing' || dirname(at) === at) break;
  }
  for (const path of missing.toReversed()) mkdirSync(path);
  return missing.at(-1);
}

function statOrMissing(path: string): Stats | 'missing' {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}
