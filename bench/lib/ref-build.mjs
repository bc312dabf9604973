// The reference side of `bench:compare`: a git ref built in a temporary git worktree with its own
// `npm ci` (whose `prepare` builds dist/), cached by commit so that comparing against `main` twice
// builds it once. A build that failed half-way has no `.built` mark and is built again.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './processes.mjs';

const CACHE = process.env.BENCH_COMPARE_CACHE || join(tmpdir(), 'shortlink-mock-bench-builds');
const BUILD_TIMEOUT_MS = 15 * 60_000;

const git = (args, options = {}) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options }).trim();

/** The full commit a ref names, or an Error that says the ref is unknown. */
export function resolveCommit(ref) {
  try {
    return git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`bench:compare: '${ref}' names no commit in this repository (try main, a tag or a commit hash)`);
  }
}

/** A directory holding the ref's build (dist/ and its node_modules), built now unless cached. */
export function buildRef(ref, log = console.error) {
  const commit = resolveCommit(ref);
  const dir = join(CACHE, commit);
  const mark = join(dir, '.built');
  if (existsSync(mark)) {
    log(`bench:compare: ${ref} (${commit.slice(0, 10)}) from the cache in ${dir}`);
    return { dir, commit };
  }
  log(`bench:compare: building ${ref} (${commit.slice(0, 10)}) in ${dir}: git worktree, npm ci (its prepare builds dist/)`);
  mkdirSync(CACHE, { recursive: true });
  if (existsSync(dir)) {
    try {
      git(['worktree', 'remove', '--force', dir]);
    } catch {
      // not a registered worktree (a copy left by an interrupted run): removed below
    }
    rmSync(dir, { recursive: true, force: true });
  }
  git(['worktree', 'prune']);
  git(['worktree', 'add', '--detach', '--force', dir, commit]);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], timeout: BUILD_TIMEOUT_MS, env: { ...process.env, npm_config_loglevel: 'error' } });
  if (!existsSync(join(dir, 'dist', 'src', 'cli.js'))) execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'inherit', timeout: BUILD_TIMEOUT_MS });
  writeFileSync(mark, `${commit}\n`);
  return { dir, commit };
}
