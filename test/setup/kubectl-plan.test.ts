// planKubectl, the deploy set-up's decision: use /usr/bin/kubectl (Google's package or Debian's
// kubernetes-client), install Debian's kubernetes-client when root, or fail with the command to run.
import { describe, expect, it } from 'vitest';
import { KUBECTL_INSTALL_STEPS, planKubectl } from './kubectl-plan.js';

const DEBIAN = '/usr/bin/kubectl';
const facts = (present: string[], root: boolean, configured?: string) => ({ configured, isExecutable: (path: string) => present.includes(path), isRoot: root, hasAptGet: true });

describe('planKubectl', () => {
  it.each([
    ['present', facts([DEBIAN], true), { action: 'use', path: DEBIAN }],
    ['missing, root: installs Debian\'s kubernetes-client', facts([], true), { action: 'install', path: DEBIAN }],
    ['configured and there: used, nothing installed', facts(['/opt/k/kubectl'], true, '/opt/k/kubectl'), { action: 'use', path: '/opt/k/kubectl' }],
  ])('%s', (_what, given, plan) => {
    expect(planKubectl(given)).toEqual(plan);
  });

  it('missing, not root: fails with the exact command', () => {
    expect(planKubectl(facts([], false))).toEqual({ action: 'fail', message: expect.stringContaining('run: sudo apt-get update && sudo apt-get install -y kubernetes-client') });
  });

  it('installs with apt-get', () => {
    expect(KUBECTL_INSTALL_STEPS).toEqual([['apt-get', 'update'], ['apt-get', 'install', '-y', 'kubernetes-client']]);
  });
});
