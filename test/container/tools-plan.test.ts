// The container set-up's decision about Podman, runc and mmdebstrap, a row per case.
import { describe, expect, it } from 'vitest';
import { CONTAINER_SUDO_INSTALL, planContainerTools } from './tools-plan.js';

const having = (...paths: string[]) => (path: string) => paths.includes(path);
const ALL = ['/usr/bin/podman', '/usr/sbin/runc', '/usr/bin/mmdebstrap', '/usr/bin/podman-compose', '/usr/libexec/podman/catatonit', '/usr/lib/cni/dnsname'];
const DEPLOY_PACKAGES = 'podman-compose catatonit golang-github-containernetworking-plugin-dnsname';

describe('the container tools plan', () => {
  it('uses what is there', () => {
    expect(planContainerTools({ isExecutable: having(...ALL), isRoot: false, hasAptGet: true })).toEqual({ action: 'use' });
  });

  it('as root with apt-get, installs only the missing packages', () => {
    expect(planContainerTools({ isExecutable: having(...ALL.filter((path) => !path.endsWith('runc') && !path.endsWith('mmdebstrap'))), isRoot: true, hasAptGet: true })).toEqual({
      action: 'install',
      steps: [['apt-get', 'update'], ['apt-get', 'install', '-y', 'runc', 'mmdebstrap']],
    });
  });

  it('not root, fails with the exact command', () => {
    const plan = planContainerTools({ isExecutable: having(), isRoot: false, hasAptGet: true });
    expect(plan).toEqual({ action: 'fail', message: expect.stringContaining(`this is not root`) });
    expect(plan.action === 'fail' && plan.message).toContain(`run: ${CONTAINER_SUDO_INSTALL}`);
    expect(CONTAINER_SUDO_INSTALL).toBe(`sudo apt-get update && sudo apt-get install -y podman runc mmdebstrap ${DEPLOY_PACKAGES}`);
  });

  it('root without apt-get says what to install', () => {
    const plan = planContainerTools({ isExecutable: having(), isRoot: true, hasAptGet: false });
    expect(plan.action === 'fail' && plan.message).toMatch(/there is no apt-get.*install Podman/);
  });
});
