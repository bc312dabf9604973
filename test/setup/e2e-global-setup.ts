// Vitest global setup of the e2e project (vitest.config.ts): runs once per `npm test`, and only
// when an e2e test is among the files to run. Finds the browser (SHORTLINK_MOCK_CHROMIUM, else
// Debian's /usr/bin/chromium) and installs Debian's package when it is missing and this is root.
// The e2e tests get the outcome with inject('e2eBrowser'): a path, or the problem with the exact
// command to run, which they fail with. Not thrown here: a throwing global setup stops every test
// of the run and Vitest reports it as "No test files found".
import type { TestProject } from 'vitest/node';
import { BROWSER_ENV, INSTALL_STEPS, planBrowser } from './browser-plan.js';
import { isExecutable, onPath, runInstallStep } from './install-tools.js';

export type E2eBrowser = { path: string } | { problem: string };

declare module 'vitest' {
  export interface ProvidedContext {
    e2eBrowser: E2eBrowser;
  }
}

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
      for (const step of INSTALL_STEPS) await runInstallStep(step, "the console's end-to-end test needs Debian's chromium");
    } catch (error) {
      return { problem: (error as Error).message };
    }
    if (!isExecutable(plan.path)) return { problem: `Debian's chromium package installed, but ${plan.path} is still not an executable file` };
  }
  return { path: plan.path };
}
