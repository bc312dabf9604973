// The mock's image, built from the repository's own Dockerfile on the base image of base-image.ts,
// with the flags this machine needs (podman.ts) and nothing else. Tagged by a hash of its build
// context (what .dockerignore lets in, the base image, the build flags): a second call in the same
// run, or a rerun on an unchanged tree, builds nothing; a changed tree builds a new tag, reusing
// Podman's layer cache (npm ci is redone only when package.json or the lock changed), and removes
// the image this same checkout built before (found by its label; another checkout's stays).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { ensureBaseImage } from './base-image.js';
import { BUILD_FLAGS, podman, podmanOk, TIMEOUTS } from './podman.js';

/** The repository of the images the container tests build; the tag is `test-<context hash>`. */
export const MOCK_IMAGE_REPOSITORY = 'localhost/shortlink-mock';
const TREE_LABEL = 'shortlink-mock.tree';

/** The files the build sees: each `!path` or `!dir/**` line of .dockerignore (which ignores everything else). */
export function contextFiles(root = PACKAGE_ROOT): string[] {
  const included = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('!'))
    .map((line) => line.slice(1).replace(/\/\*\*$/, ''));
  return ['Dockerfile', '.dockerignore', ...included.flatMap((path) => filesUnder(root, path))].sort();
}

function filesUnder(root: string, path: string): string[] {
  if (!statSync(join(root, path)).isDirectory()) return [path];
  return readdirSync(join(root, path), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
}

export function contextKey(baseImageId: string, root = PACKAGE_ROOT): string {
  const hash = createHash('sha256').update(baseImageId).update(BUILD_FLAGS.join(' '));
  for (const file of contextFiles(root)) hash.update(`\0${file}\0`).update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

export interface ImageInfo {
  id: string;
  size: number;
  labels: Record<string, string>;
}

/** The image's id, size (bytes, every layer) and labels; undefined when there is no such image. */
export async function inspectImage(ref: string): Promise<ImageInfo | undefined> {
  const result = await podman(['image', 'inspect', ref]);
  if (result.code !== 0) return undefined;
  const [image] = JSON.parse(result.stdout) as { Id: string; Size: number; Labels?: Record<string, string> | null }[];
  return image ? { id: image.Id, size: image.Size, labels: image.Labels ?? {} } : undefined;
}

/** Builds the repository's Dockerfile as `tag` on the base image (NODE_IMAGE); the build's output on failure. */
export async function buildImage(tag: string, baseImage: string, labels: Record<string, string> = {}, root = PACKAGE_ROOT): Promise<void> {
  const labelFlags = Object.entries(labels).flatMap(([name, value]) => ['--label', `${name}=${value}`]);
  await podmanOk(['build', ...BUILD_FLAGS, '--build-arg', `NODE_IMAGE=${baseImage}`, ...labelFlags, '-t', tag, '-f', join(root, 'Dockerfile'), root], TIMEOUTS.build, root);
}

/** The mock's image tag for this tree, built if it is not in Podman's storage yet (see above). */
export async function ensureMockImage(): Promise<string> {
  const base = await ensureBaseImage();
  const baseInfo = await inspectImage(base);
  if (!baseInfo) throw new Error(`the base image ${base} is not in Podman's storage`);
  const tag = `${MOCK_IMAGE_REPOSITORY}:test-${contextKey(baseInfo.id)}`;
  if (await inspectImage(tag)) return tag;
  const started = Date.now();
  process.stderr.write(`container setup: building ${tag} from the Dockerfile on ${base}\n`);
  await buildImage(tag, base, { [TREE_LABEL]: PACKAGE_ROOT });
  process.stderr.write(`container setup: built ${tag} in ${Math.round((Date.now() - started) / 1000)} s\n`);
  await removeEarlierBuilds(tag);
  return tag;
}

/** This checkout's earlier images; one a container still uses stays (podman rmi refuses it). */
async function removeEarlierBuilds(current: string): Promise<void> {
  const listed = await podman(['images', '--filter', `reference=${MOCK_IMAGE_REPOSITORY}`, '--filter', `label=${TREE_LABEL}=${PACKAGE_ROOT}`, '--format', '{{.Repository}}:{{.Tag}}']);
  for (const ref of listed.stdout.split('\n').filter((line) => line !== '' && line !== current)) await podman(['rmi', ref]);
}

/** The image's size above its base image: the bytes of the layers the Dockerfile adds. */
export async function sizeAboveBase(tag: string): Promise<number> {
  const [mock, base] = await Promise.all([inspectImage(tag), inspectImage(await ensureBaseImage())]);
  if (!mock || !base) throw new Error(`no image ${tag} or no base image: build it first (ensureMockImage)`);
  return mock.size - base.size;
}
