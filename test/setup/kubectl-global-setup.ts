// Vitest global setup of the deploy project (vitest.config.ts): runs once per `npm test`, only when
// a file of test/deploy/ is among those run. Finds kubectl ($SHORTLINK_MOCK_KUBECTL, else
// /usr/bin/kubectl) and installs Debian's kubernetes-client when it is missing and this is root
// (kubectl-plan.ts). The tests get the outcome with inject('kubectl'): a path, or the problem with
// the exact command to run, which they fail with. Not thrown here: a throwing global setup stops
// every test of the run and Vitest reports it as "No test files found".
import type { TestProject } from 'vitest/node';
import { findOrInstall, type FoundTool } from './install-tools.js';
import { KUBECTL, KUBECTL_ENV, KUBECTL_INSTALL_STEPS, planKubectl } from './kubectl-plan.js';

declare module 'vitest' {
  export interface ProvidedContext {
    kubectl: FoundTool;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const outcome = await findOrInstall('deploy setup', KUBECTL, planKubectl, process.env[KUBECTL_ENV], KUBECTL_INSTALL_STEPS);
  if ('problem' in outcome) process.stderr.write(`deploy setup: ${outcome.problem}\n`);
  project.provide('kubectl', outcome);
}
