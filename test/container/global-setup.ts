// Vitest global setup of npm run test:container: Podman, runc and mmdebstrap (tools-plan.ts), then
// the base image and the mock's image (base-image.ts, mock-image.ts), once per run before any test
// file: the files then find the image built. A missing tool that cannot be installed fails the run
// with the command to run.
import { isExecutable, onPath, runInstallStep } from '../setup/install-tools.js';
import { ensureMockImage } from './mock-image.js';
import { planContainerTools } from './tools-plan.js';

export default async function setup(): Promise<void> {
  const plan = planContainerTools({ isExecutable, isRoot: process.getuid?.() === 0, hasAptGet: onPath('apt-get') });
  if (plan.action === 'fail') throw new Error(`container setup: ${plan.message}`);
  if (plan.action === 'install') {
    process.stderr.write(`container setup: installing ${plan.steps.map((step) => step.join(' ')).join(' && ')}\n`);
    for (const step of plan.steps) await runInstallStep(step, 'the container tests need Podman, runc and mmdebstrap from Debian');
  }
  await ensureMockImage();
}
