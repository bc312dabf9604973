// What a global set-up needs to find a tool or install its Debian package: an executable check, a
// PATH look-up, and running one install step bounded in time. Shared by the set-ups that install
// something (redis-global-setup.ts, e2e-global-setup.ts, kubectl-global-setup.ts), and findOrInstall,
// which carries out a binary-plan.ts decision.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { BinaryFacts, BinaryPlan, BinarySpec } from './binary-plan.js';

// An install downloads from a mirror; a stuck one must still end the run.
const INSTALL_STEP_TIMEOUT_MS = 15 * 60_000;

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function onPath(command: string): boolean {
  return (process.env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, command)));
}

/** Runs one step (e.g. apt-get install -y …) non-interactively, its output on the run's own; rejects naming `why` on failure. */
export function runInstallStep([command = '', ...args]: readonly string[], why: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: INSTALL_STEP_TIMEOUT_MS,
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`\`${[command, ...args].join(' ')}\` failed (${signal ?? `exit ${code}`}); ${why}`));
    });
  });
}

export type FoundTool = { path: string } | { problem: string };

/**
 * Carries out binary-plan.ts's decision for one tool: the path to use, after installing its Debian
 * package when the plan says so, or the problem (with the exact command to run) as a value.
 */
export async function findOrInstall(
  who: string,
  spec: BinarySpec,
  plan: (facts: BinaryFacts) => BinaryPlan,
  configured: string | undefined,
  steps: readonly (readonly string[])[],
): Promise<FoundTool> {
  const decided = plan({ configured, isExecutable, isRoot: process.getuid?.() === 0, hasAptGet: onPath('apt-get') });
  if (decided.action === 'fail') return { problem: decided.message };
  if (decided.action === 'install') {
    const started = Date.now();
    process.stderr.write(`${who}: ${decided.path} is missing; installing Debian's ${spec.aptPackage} package (${steps.map((step) => step.join(' ')).join(' && ')})\n`);
    try {
      for (const step of steps) await runInstallStep(step, `${spec.forWhat}: it needs Debian's ${spec.aptPackage}`);
    } catch (error) {
      return { problem: (error as Error).message };
    }
    if (!isExecutable(decided.path)) return { problem: `Debian's ${spec.aptPackage} package installed, but ${decided.path} is still not an executable file` };
    process.stderr.write(`${who}: installed ${decided.path} in ${Math.round((Date.now() - started) / 1000)} s\n`);
  }
  return { path: decided.path };
}
