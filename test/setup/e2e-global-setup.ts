// Vitest global setup of the e2e project (vitest.config.ts): runs once per `npm test`, and only
// when an e2e test is among the files to run. Finds the browser (SHORTLINK_MOCK_CHROMIUM, else
// Debian's /usr/bin/chromium) and installs Debian's package when it is missing and this is root.
// The e2e tests get the outcome with inject('e2eBrowser'): a path, or the problem with the exact
// command to run, which they fail with. Not thrown here: a throwing global setup stops every test
// of the run and Vitest reports it as "No test files found".
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { BROWSER_ENV, INSTALL_STEPS, planBrowser } from './browser-plan.js';

export type E2eBrowser = { path: string } | { problem: string };

declare module 'vitest' {
  export interface ProvidedContext {
    e2eBrowser: E2eBrowser;
  }
}

// An install downloads a few hundred MB; a stuck mirror must still end the run.
const INSTALL_STEP_TIMEOUT_MS = 15 * 60_000;

export default async function setup(project: TestProject): Promise<void> {
  const outcome = await findBrowser();
  if ('problem' in outcome) process.stderr.write(`e2e setup: ${outcome.problem}\n`);
  project.provide('e2eBrowser', outcome);
}

async function findBrowser(): Promise<E2eBrowser> {
  const plan = planBrowser({
    configured: process.env[BROWSER_ENV],
    isExecutable,
    isRoot: process.getuid?.() === 0,
    hasAptGet: onPath('apt-get'),
  });
  if (plan.action === 'fail') return { problem: plan.message };
  if (plan.action === 'install') {
    process.stderr.write(`e2e setup: ${plan.path} is missing; installing Debian's chromium package (${INSTALL_STEPS.map((step) => step.join(' ')).join(' && ')})\n`);
    try {
      for (const step of INSTALL_STEPS) await run(step);
    } catch (error) {
      return { problem: (error as Error).message };
    }
    if (!isExecutable(plan.path)) return { problem: `Debian's chromium package installed, but ${plan.path} is still not an executable file` };
  }
  return { path: plan.path };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command: string): boolean {
  return (process.env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, command)));
}

function run([command = '', ...args]: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: INSTALL_STEP_TIMEOUT_MS,
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`\`${[command, ...args].join(' ')}\` failed (${signal ?? `exit ${code}`}); the console's end-to-end test needs Debian's chromium`));
    });
  });
}
