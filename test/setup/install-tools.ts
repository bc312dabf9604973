// What a global set-up needs to find a tool or install its Debian package: an executable check, a
// PATH look-up, and running one install step bounded in time. Shared by the set-ups that install
// something (redis-global-setup.ts, e2e-global-setup.ts).
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

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
