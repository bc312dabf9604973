// The base image the Dockerfile builds FROM (its NODE_IMAGE argument). Where a registry answers it
// is node:24-bookworm-slim itself, pulled; where none does (this CI VM), the set-up makes a stand-in
// of it: a Debian bookworm root file system from Debian's own mirror (mmdebstrap, minbase), Node.js
// 24 (the pinned binary of npm run test:node-lines, test/node-lines/) and this machine's npm where
// the official image has them (/usr/local), its `node` user (uid 1000), and `podman import`ed as
// localhost/node:24-bookworm-slim. The same Dockerfile builds on either. Made once per key (the
// Node.js version, the extra CA bundle, SETUP_VERSION): a rerun finds it in Podman's storage by its label.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pinnedNode } from '../node-lines/fetch-node.js';
import { NODE_PINS, nodeCacheRoot } from '../node-lines/pins.js';
import { runCommand } from '../package/run-command.js';
import { CACHE_DIR, podman, podmanOk, TIMEOUTS } from './podman.js';

/** Raise when what goes into the made base image changes: the next run makes it again. */
const SETUP_VERSION = 1;
export const BASE_KEY_LABEL = 'shortlink-mock.base-key';
/** What the Dockerfile names by default, fully qualified. */
export const REGISTRY_NODE_IMAGE = 'docker.io/library/node:24-bookworm-slim';
/** The stand-in's name when the registry's image cannot be pulled. */
export const MADE_NODE_IMAGE = 'localhost/node:24-bookworm-slim';
/** The Node.js line of the Dockerfile's default NODE_IMAGE, whose pinned binary the stand-in carries. */
const IMAGE_NODE_LINE = 24;
const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
// Where the stand-in puts the machine's extra CA bundle (NODE_EXTRA_CA_CERTS): a network whose TLS
// is intercepted (this VM's) makes npm ci fail with SELF_SIGNED_CERT_IN_CHAIN without it. A
// company's mirror of the base image carries its CAs the same way; the Dockerfile stays plain.
const IMAGE_EXTRA_CA = '/usr/local/share/ca-certificates/host-extra-ca.crt';

interface NodeInstall {
  node: string;
  version: string;
  npmDir: string;
  extraCa?: string;
}

/** The pinned Node.js 24 (fetched into the node-lines cache when missing) and this machine's npm. */
function imageNode(): NodeInstall {
  const pin = NODE_PINS.find((each) => each.line === IMAGE_NODE_LINE);
  if (!pin) throw new Error(`no pinned Node.js ${IMAGE_NODE_LINE} in test/node-lines/pins.ts`);
  const cacheRoot = nodeCacheRoot(process.env);
  mkdirSync(cacheRoot, { recursive: true });
  const node = join(pinnedNode(cacheRoot, pin, (line) => process.stderr.write(`container setup: ${line}\n`)), 'node');
  const machineNode = realpathSync(process.execPath);
  const npmDir = join(dirname(dirname(machineNode)), 'lib', 'node_modules', 'npm');
  if (!existsSync(join(npmDir, 'bin', 'npm-cli.js'))) throw new Error(`npm not found beside ${machineNode} (looked in ${npmDir}): the base image needs this machine's npm`);
  const extraCa = process.env['NODE_EXTRA_CA_CERTS'];
  return { node, version: `v${pin.version}`, npmDir, ...(extraCa && existsSync(extraCa) ? { extraCa } : {}) };
}

export function baseKey(install: NodeInstall): string {
  const ca = install.extraCa ? createHash('sha256').update(readFileSync(install.extraCa)).digest('hex').slice(0, 12) : 'none';
  return `node-${install.version}-ca-${ca}-setup-${SETUP_VERSION}`;
}

/** mmdebstrap's hooks: Node.js and npm as the official image lays them out, the node user, the CA bundle. */
export function customizeHooks(install: NodeInstall): string[] {
  return [
    'mkdir -p "$1/usr/local/bin" "$1/usr/local/lib/node_modules" "$1/usr/local/share/ca-certificates"',
    `copy-in ${install.node} /usr/local/bin`,
    `copy-in ${install.npmDir} /usr/local/lib/node_modules`,
    'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
    'chroot "$1" groupadd --gid 1000 node && chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
    ...(install.extraCa ? [`cp ${install.extraCa} "$1${IMAGE_EXTRA_CA}"`] : []),
  ].map((hook) => `--customize-hook=${hook}`);
}

async function labelOf(ref: string): Promise<string | undefined> {
  const result = await podman(['image', 'inspect', ref]);
  if (result.code !== 0) return undefined;
  const [image] = JSON.parse(result.stdout) as { Labels?: Record<string, string> | null }[];
  return image?.Labels?.[BASE_KEY_LABEL] ?? '';
}

async function makeBaseImage(install: NodeInstall, key: string): Promise<void> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const dir = mkdtempSync(join(CACHE_DIR, 'rootfs-'));
  const tarball = join(dir, 'rootfs.tar');
  try {
    const started = Date.now();
    process.stderr.write(`container setup: making ${MADE_NODE_IMAGE} (Debian bookworm minbase from ${DEBIAN_MIRROR} + Node.js ${install.version}); about a minute\n`);
    const made = await runCommand('mmdebstrap', ['--variant=minbase', ...customizeHooks(install), 'bookworm', tarball, DEBIAN_MIRROR], dir, TIMEOUTS.build);
    if (made.code !== 0) throw new Error(`mmdebstrap failed:\n${made.transcript}`);
    const changes = ['CMD ["node"]', `LABEL ${BASE_KEY_LABEL}=${key}`, ...(install.extraCa ? [`ENV NODE_EXTRA_CA_CERTS=${IMAGE_EXTRA_CA}`] : [])];
    await podmanOk(['import', ...changes.flatMap((change) => ['--change', change]), tarball, MADE_NODE_IMAGE], TIMEOUTS.imageIo);
    process.stderr.write(`container setup: made ${MADE_NODE_IMAGE} in ${Math.round((Date.now() - started) / 1000)} s\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The NODE_IMAGE to build with: $NODE_IMAGE when set (in storage or pulled, else an error: a base
 * named on purpose is never swapped for another); otherwise the registry's node:24-bookworm-slim
 * when it is in storage or can be pulled, else the stand-in (made now unless made already for this key).
 */
export async function ensureBaseImage(): Promise<string> {
  const named = process.env['NODE_IMAGE'];
  const wanted = named || REGISTRY_NODE_IMAGE;
  if ((await labelOf(wanted)) !== undefined) return wanted;
  const pull = await podman(['pull', wanted], TIMEOUTS.imageIo);
  if (pull.code === 0) return wanted;
  if (named) throw new Error(`NODE_IMAGE=${named} is not in Podman's storage and cannot be pulled:\n${pull.transcript}`);
  const install = imageNode();
  const key = baseKey(install);
  if ((await labelOf(MADE_NODE_IMAGE)) !== key) await makeBaseImage(install, key);
  return MADE_NODE_IMAGE;
}
