// What the container tests need on the machine and what the set-up does about it: Podman with runc
// (the runtime podman.ts names) to build and run images, mmdebstrap to make the base image where
// no registry answers (base-image.ts). Present: used. Missing, as root with apt-get: installed from
// Debian. Otherwise the run fails with the exact command. Pure: the facts come in (tools-plan.test.ts).

export interface ContainerTool {
  binary: string;
  aptPackage: string;
}

export const CONTAINER_TOOLS: readonly ContainerTool[] = [
  { binary: '/usr/bin/podman', aptPackage: 'podman' },
  { binary: '/usr/sbin/runc', aptPackage: 'runc' },
  { binary: '/usr/bin/mmdebstrap', aptPackage: 'mmdebstrap' },
  // deploy/ (compose.test.ts, kube-play.test.ts): compose itself; the pause binary every pod's
  // infra container runs; names of containers and pods on a CNI network (Debian's default backend).
  { binary: '/usr/bin/podman-compose', aptPackage: 'podman-compose' },
  { binary: '/usr/libexec/podman/catatonit', aptPackage: 'catatonit' },
  { binary: '/usr/lib/cni/dnsname', aptPackage: 'golang-github-containernetworking-plugin-dnsname' },
];

export interface ToolFacts {
  isExecutable: (path: string) => boolean;
  isRoot: boolean;
  hasAptGet: boolean;
}

export type ToolsPlan = { action: 'use' } | { action: 'install'; steps: string[][] } | { action: 'fail'; message: string };

const ALL_PACKAGES = CONTAINER_TOOLS.map((tool) => tool.aptPackage);

/** For someone who is not root, to copy and paste: every package, so one command is enough. */
export const CONTAINER_SUDO_INSTALL = `sudo apt-get update && sudo apt-get install -y ${ALL_PACKAGES.join(' ')}`;

export function planContainerTools(facts: ToolFacts): ToolsPlan {
  const missing = CONTAINER_TOOLS.filter((tool) => !facts.isExecutable(tool.binary));
  if (missing.length === 0) return { action: 'use' };
  if (facts.isRoot && facts.hasAptGet) return { action: 'install', steps: [['apt-get', 'update'], ['apt-get', 'install', '-y', ...missing.map((tool) => tool.aptPackage)]] };
  const lacking = facts.isRoot ? 'there is no apt-get' : 'this is not root';
  const how = facts.hasAptGet ? `run: ${CONTAINER_SUDO_INSTALL}` : 'install Podman (with runc) and mmdebstrap, e.g. from Debian bookworm';
  return { action: 'fail', message: `${missing.map((tool) => tool.binary).join(', ')} missing and ${lacking}: the container tests build and run the image with Podman; ${how}` };
}
