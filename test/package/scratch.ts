// Where the package tests make their fresh projects, and the npm cache their installs use. npm's
// installs here write tens of thousands of small files (a git install's clone gets all ~480 dev
// packages, 321 MB, 29k files), and on this repository's 2-core ext4 machine the kernel's share of
// that work was most of it and moved with the load of other writers: the tarball install into a
// fresh project took 6 s user + 8.5 s sys there, 5 s + 2.1 s on tmpfs (26 Nov 2026). So the
// scratch folders go to /dev/shm (RAM) where it exists with room to spare, else to the OS's tmpdir.
import { mkdirSync, mkdtempSync, statfsSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const RAM_DIR = '/dev/shm';
/** A git install peaks at about 400 MB (the clone with its dev dependencies, the project); a small /dev/shm (Docker's 64 MB) is passed over. */
const RAM_NEEDED_BYTES = 2 * 1024 ** 3;

function roomOnRamDisk(): boolean {
  try {
    const stats = statfsSync(RAM_DIR);
    return stats.bavail * stats.bsize >= RAM_NEEDED_BYTES;
  } catch {
    return false;
  }
}

/** A new empty folder for one test file's projects; the caller removes it. */
export function scratchDir(prefix: string): string {
  return mkdtempSync(join(roomOnRamDisk() ? RAM_DIR : tmpdir(), prefix));
}

/**
 * An npm cache folder in `scratch` that reads and writes the user's own cache (its content and
 * index are links to them, so the installs still come from the cache `npm ci` filled) but keeps
 * npm's temporary folder, where npm clones a git dependency and installs its dev dependencies, in
 * `scratch` (and its logs, away from the user's ~/.npm/_logs). Pass it as npm_config_cache.
 */
export function npmCacheIn(scratch: string): string {
  const own = process.env['npm_config_cache'] ?? join(homedir(), '.npm');
  const cache = join(scratch, 'npm-cache');
  mkdirSync(join(cache, '_cacache', 'tmp'), { recursive: true });
  for (const part of ['content-v2', 'index-v5']) {
    mkdirSync(join(own, '_cacache', part), { recursive: true });
    symlinkSync(join(own, '_cacache', part), join(cache, '_cacache', part));
  }
  return cache;
}
