// The images deploy/compose.yaml names besides the mock's (Redis, HAProxy; the StatefulSet names
// the same Redis): present or pulled, each is used as it is. Where no registry answers (this CI VM),
// a stand-in is built under that very name from stand-ins/<service>/Containerfile (Debian
// bookworm's own package, laid out as the official image is) on the tests' bookworm base image, so
// compose.yaml and the manifests run unchanged. A stand-in is labelled and kept between runs, like
// the base image; a real image (no label) is never replaced.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { ensureBaseImage } from './base-image.js';
import { BUILD_FLAGS, podman, podmanOk, TIMEOUTS } from './podman.js';

const STAND_IN_LABEL = 'shortlink-mock.stand-in';
/** Raise when a Containerfile changes: a stand-in of an older version is built again. */
const STAND_IN_VERSION = '2';
export const STAND_IN_SERVICES = ['redis', 'lb'] as const;
const CONTEXT: Record<(typeof STAND_IN_SERVICES)[number], string> = { redis: 'redis', lb: 'haproxy' };

/** The image of a service of deploy/compose.yaml. */
export function composeImage(service: string): string {
  const compose = yaml.load(readFileSync(join(PACKAGE_ROOT, 'deploy', 'compose.yaml'), 'utf8')) as { services: Record<string, { image: string }> };
  const image = compose.services[service]?.image;
  if (!image) throw new Error(`deploy/compose.yaml has no image for service ${service}`);
  return image;
}

async function standInLabel(ref: string): Promise<string | undefined> {
  const result = await podman(['image', 'inspect', '--format', `{{index .Labels "${STAND_IN_LABEL}"}}`, ref]);
  return result.code === 0 ? result.stdout.trim() : undefined;
}

async function ensureImage(service: (typeof STAND_IN_SERVICES)[number]): Promise<string> {
  const image = composeImage(service);
  const version = `${CONTEXT[service]}-${STAND_IN_VERSION}`;
  const found = await standInLabel(image);
  if (found !== undefined && (found === '' || found === '<no value>' || found === version)) return image;
  if (found === undefined && (await podman(['pull', image], TIMEOUTS.imageIo)).code === 0) return image;
  const base = await ensureBaseImage();
  process.stderr.write(`container setup: no registry answers for ${image}: building a stand-in (Debian's package on ${base})\n`);
  const context = join(PACKAGE_ROOT, 'test', 'container', 'stand-ins', CONTEXT[service]);
  await podmanOk(['build', ...BUILD_FLAGS, '--build-arg', `BASE_IMAGE=${base}`, '--label', `${STAND_IN_LABEL}=${version}`, '-t', image, context], TIMEOUTS.build);
  return image;
}

/** Redis's and HAProxy's images, one after the other (builds share two cores). */
export async function ensureStandInImages(): Promise<void> {
  for (const service of STAND_IN_SERVICES) await ensureImage(service);
}

export const ensureRedisImage = (): Promise<string> => ensureImage('redis');
