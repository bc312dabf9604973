// The Redis image deploy/ names (compose.yaml's, the same as the StatefulSet's): present or pulled,
// it is used as it is. Where no registry answers (this CI VM), a stand-in is built under that very
// name from redis-stand-in/Containerfile (Debian bookworm's redis-server, laid out as the official
// image is) on the tests' bookworm base image, so compose.yaml and the manifests run unchanged. The
// stand-in is labelled and kept between runs, like the base image; a real one is never replaced.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { PACKAGE_ROOT } from '../../src/package-files.js';
import { ensureBaseImage } from './base-image.js';
import { BUILD_FLAGS, podman, podmanOk, TIMEOUTS } from './podman.js';

const STAND_IN_LABEL = 'shortlink-mock.stand-in';
/** Raise when the Containerfile changes: a stand-in of an older version is built again. */
const STAND_IN_VERSION = 'redis-1';

/** The Redis image of deploy/compose.yaml. */
export function deployRedisImage(): string {
  const compose = yaml.load(readFileSync(join(PACKAGE_ROOT, 'deploy', 'compose.yaml'), 'utf8')) as { services: { redis: { image: string } } };
  return compose.services.redis.image;
}

async function label(ref: string): Promise<string | undefined> {
  const result = await podman(['image', 'inspect', '--format', `{{index .Labels "${STAND_IN_LABEL}"}}`, ref]);
  return result.code === 0 ? result.stdout.trim() : undefined;
}

export async function ensureRedisImage(): Promise<string> {
  const image = deployRedisImage();
  const found = await label(image);
  // A real image (no label) or a current stand-in.
  if (found !== undefined && (found === '' || found === '<no value>' || found === STAND_IN_VERSION)) return image;
  if (found === undefined && (await podman(['pull', image], TIMEOUTS.imageIo)).code === 0) return image;
  const base = await ensureBaseImage();
  const context = join(PACKAGE_ROOT, 'test', 'container', 'redis-stand-in');
  process.stderr.write(`container setup: no registry answers for ${image}: building a stand-in (Debian's redis-server on ${base})\n`);
  await podmanOk(['build', ...BUILD_FLAGS, '--build-arg', `BASE_IMAGE=${base}`, '--label', `${STAND_IN_LABEL}=${STAND_IN_VERSION}`, '-t', image, context], TIMEOUTS.build);
  return image;
}
