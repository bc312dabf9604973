// The two sides of `bench:compare`; each round starts a server of its side and stops it after:
//   a git ref           built in a cached worktree (ref-build.mjs) and served by its own CLI;
//   dir:/path           a checkout that is built already (its dist/src/cli.js), used as it is;
//   express             the bare Express baseline (bench/baseline-server.mjs: app.listen, fixed answers);
//   ceiling             the same app on the mock's createHttpServer (`--app-server`): the stack's ceiling;
//   floor               the ceiling with the mock's contract validator in front (`--validator`): the validator floor;
//   the working tree    the candidate by default (`npm run bench:compare` builds it first).
// Every mock gets a db file of its own in a temporary directory and only flags that every build
// since the first bench knows.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRef } from './ref-build.mjs';
import { baselineCommand, ROOT, startServer, stopServer } from './processes.mjs';

export const WORKING_TREE = 'working tree';

/**
 * What a side names: { label, kind: 'mock' | 'express', dir?, node? }; builds a git ref when needed.
 * node: the binary its mock runs on (default: this process's), named in the label.
 */
export function resolveSide(spec, log, node) {
  const side = mockSide(spec, log);
  if (node === undefined) return side;
  if (side.kind !== 'mock') throw new Error(`bench:compare: a node binary is for a mock side, not ${side.label}`);
  let version;
  try {
    version = execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch (error) {
    throw new Error(`bench:compare: ${node} does not run as node (${error.message.split('\n')[0]})`);
  }
  return { ...side, node, label: `${side.label} on Node ${version}` };
}

function mockSide(spec, log) {
  if (spec === WORKING_TREE) return { label: WORKING_TREE, kind: 'mock', dir: ROOT };
  if (spec === 'express') return { label: 'bare Express (app.listen)', kind: 'express' };
  if (spec === 'ceiling') return { label: 'bare Express on createHttpServer (the ceiling)', kind: 'express', appServer: true };
  if (spec === 'floor') return { label: 'the ceiling with the mock\'s contract validator (the validator floor)', kind: 'express', appServer: true, validator: true };
  if (spec.startsWith('dir:')) {
    const dir = spec.slice('dir:'.length);
    if (!existsSync(join(dir, 'dist', 'src', 'cli.js'))) throw new Error(`bench:compare: ${dir} has no dist/src/cli.js: build it first`);
    return { label: dir, kind: 'mock', dir };
  }
  const { dir, commit } = buildRef(spec, log);
  return { label: `${spec} (${commit.slice(0, 10)})`, kind: 'mock', dir };
}

/** Starts a side's server; resolves with its URL, child and kind. stopSide stops it and removes its db. */
export async function startSide(side) {
  if (side.kind === 'express') return { ...(await startServer(baselineCommand({ appServer: side.appServer, validator: side.validator }))), kind: 'express' };
  const dir = mkdtempSync(join(tmpdir(), 'bench-compare-'));
  const args = [join(side.dir, 'dist', 'src', 'cli.js'), '--port', '0', '--host', '127.0.0.1', '--quiet', '--db', join(dir, 'db.json'), '--reset'];
  try {
    return { ...(await startServer({ command: side.node ?? process.execPath, args }, { cwd: side.dir })), kind: 'mock', dir };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export async function stopSide(server) {
  await stopServer(server);
  if (server.dir) rmSync(server.dir, { recursive: true, force: true });
}
