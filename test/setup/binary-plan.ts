// The decision every "find or install a tool for the tests" set-up makes, once: use the binary an
// environment variable names (never replaced by an install: that would test another program), else
// Debian's package path, else install the package when root with apt-get, else fail with the exact
// command to run. Pure: the facts come in, so each case is a row of a table test. redis-plan.ts
// and browser-plan.ts each fill in one spec.

export interface BinarySpec {
  /** The environment variable naming the binary; empty counts as unset. */
  env: string;
  /** Where the Debian package puts the binary. */
  debianPath: string;
  /** The Debian package providing it. */
  aptPackage: string;
  /** What needs it, for the messages: "the console's end-to-end test drives a headless Chromium". */
  forWhat: string;
  /** What the variable must name: "a redis-server binary". */
  binaryKind: string;
  /** The advice where there is no apt-get: how to get the binary and set the variable. */
  withoutApt: string;
}

export interface BinaryFacts {
  /** The value of the spec's environment variable. */
  configured: string | undefined;
  isExecutable: (path: string) => boolean;
  isRoot: boolean;
  hasAptGet: boolean;
}

export type BinaryPlan =
  | { action: 'use'; path: string }
  | { action: 'install'; path: string }
  | { action: 'fail'; message: string };

/** Run as root, in this order, with DEBIAN_FRONTEND=noninteractive. */
export function aptInstallSteps(aptPackage: string): string[][] {
  return [
    ['apt-get', 'update'],
    ['apt-get', 'install', '-y', aptPackage],
  ];
}

/** The same install for someone who is not root, to copy and paste. */
export function sudoInstall(aptPackage: string): string {
  return aptInstallSteps(aptPackage)
    .map((step) => `sudo ${step.join(' ')}`)
    .join(' && ');
}

export function planBinary(spec: BinarySpec, facts: BinaryFacts): BinaryPlan {
  const configured = facts.configured?.trim();
  if (configured) {
    if (facts.isExecutable(configured)) return { action: 'use', path: configured };
    const fix = `point ${spec.env} at ${spec.binaryKind}, or unset it to use Debian's ${spec.debianPath}`;
    return { action: 'fail', message: `${spec.env}=${configured} is not an executable file: ${spec.forWhat}; ${fix}.` };
  }
  if (facts.isExecutable(spec.debianPath)) return { action: 'use', path: spec.debianPath };
  if (facts.isRoot && facts.hasAptGet) return { action: 'install', path: spec.debianPath };
  const lacking = facts.isRoot ? 'there is no apt-get' : 'this is not root';
  const how = facts.hasAptGet ? `run: ${sudoInstall(spec.aptPackage)} (or set ${spec.env} to ${spec.binaryKind})` : spec.withoutApt;
  return { action: 'fail', message: `${spec.debianPath} is missing and ${lacking}: ${spec.forWhat}; ${how}.` };
}
