// How the container tests call Podman on a machine like the CI VM, found there and kept out of the
// Dockerfile (which stays plain): runc with cgroupfs (no systemd to manage cgroups), ulimits set
// explicitly under the machine's hard limits (Podman's defaults ask for more, and runc then fails
// with "error setting rlimit … operation not permitted"), and host networking for builds (npm ci
// reaches the registry the way this machine does, whatever a CI VM's bridge allows). The first two go into a
// containers.conf of our own, named by CONTAINERS_CONF for our podman processes only: the machine's
// /etc/containers is left alone. Every call is bounded in time.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, type CommandResult } from '../package/run-command.js';

/** Where the tests keep what outlives a run: containers.conf, the base image's root file system while it is made. */
export const CACHE_DIR = process.env['SHORTLINK_MOCK_CONTAINER_CACHE'] ?? join(tmpdir(), 'shortlink-mock-container-cache');

/** Bounds of one podman call, by kind. */
export const TIMEOUTS = { quick: 60_000, build: 20 * 60_000, imageIo: 5 * 60_000 } as const;

// Past these Podman's runc could not set the limit on this VM (nproc 40000 failed under a hard
// limit of 96365; nofile 20000 is the hard limit itself and works): the smaller of each and the hard limit.
const NOFILE_CAP = 65_536;
const NPROC_CAP = 16_384;

/** The soft = hard limits given to every container: the machine's hard limits, capped. */
export function containerUlimits(hard: { nofile: number; nproc: number }): { nofile: number; nproc: number } {
  return { nofile: Math.min(hard.nofile, NOFILE_CAP), nproc: Math.min(hard.nproc, NPROC_CAP) };
}

export function containersConf(limits: { nofile: number; nproc: number }): string {
  return [
    '[containers]',
    `default_ulimits = ["nofile=${limits.nofile}:${limits.nofile}", "nproc=${limits.nproc}:${limits.nproc}"]`,
    '[engine]',
    'runtime = "runc"',
    'cgroup_manager = "cgroupfs"',
    '',
  ].join('\n');
}

/** The hard limits of this process, from /proc/self/limits (`ulimit -Hu` is not in every sh). */
function hardLimits(): { nofile: number; nproc: number } {
  const limits = readFileSync('/proc/self/limits', 'utf8');
  const hard = (name: string): number => {
    const value = new RegExp(`^${name}\\s+\\S+\\s+(\\S+)`, 'm').exec(limits)?.[1];
    return value === undefined || value === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(value);
  };
  return { nofile: hard('Max open files'), nproc: hard('Max processes') };
}

let confFile: string | undefined;

/**
 * The environment every podman call gets: CONTAINERS_CONF naming our containers.conf, one file per
 * set of limits (written beside and renamed: another test process may read it at the same time).
 */
export function podmanEnv(): NodeJS.ProcessEnv {
  if (confFile === undefined) {
    const limits = containerUlimits(hardLimits());
    mkdirSync(CACHE_DIR, { recursive: true });
    const file = join(CACHE_DIR, `containers-nofile${limits.nofile}-nproc${limits.nproc}.conf`);
    writeFileSync(`${file}.${process.pid}.tmp`, containersConf(limits));
    renameSync(`${file}.${process.pid}.tmp`, file);
    confFile = file;
  }
  return { CONTAINERS_CONF: confFile };
}

/**
 * Flags a `podman build` needs, besides the user's own: host networking for npm ci (here), and
 * Docker's image format (anywhere: the OCI format has no HEALTHCHECK, and Podman drops it).
 */
export const BUILD_FLAGS = ['--network', 'host', '--format', 'docker'] as const;

/** Runs `podman ARGS` to its end within limitMs (then killed); never throws. */
export function podman(args: string[], limitMs: number = TIMEOUTS.quick, cwd = process.cwd()): Promise<CommandResult> {
  return runCommand('podman', args, cwd, limitMs, podmanEnv());
}

/** Like podman(), but a non-zero exit rejects with the whole transcript. */
export async function podmanOk(args: string[], limitMs: number = TIMEOUTS.quick, cwd = process.cwd()): Promise<string> {
  const result = await podman(args, limitMs, cwd);
  if (result.code !== 0) throw new Error(`podman failed:\n${result.transcript}`);
  return result.stdout;
}

export type { CommandResult };
