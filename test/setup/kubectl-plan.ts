// What a test run does about the kubectl the deploy tests render deploy/kubernetes with
// (`kubectl kustomize`, the kustomize built into kubectl, what `kubectl apply -k` runs): binary-plan.ts's
// decision for kubectl. Google's kubectl package and Debian's kubernetes-client (kubectl 1.20, its
// kustomize 2.0) both put it at /usr/bin/kubectl; the tests install Debian's when it is missing.
// Doing it is kubectl-global-setup.ts's job.
import { aptInstallSteps, planBinary, type BinaryFacts, type BinaryPlan, type BinarySpec } from './binary-plan.js';

/** The environment variable naming the kubectl binary; set, it is used as is and nothing is installed. */
export const KUBECTL_ENV = 'SHORTLINK_MOCK_KUBECTL';

export const KUBECTL: BinarySpec = {
  env: KUBECTL_ENV,
  debianPath: '/usr/bin/kubectl',
  aptPackage: 'kubernetes-client',
  forWhat: 'the deploy tests (test/deploy/) render deploy/kubernetes with `kubectl kustomize`',
  binaryKind: 'a kubectl binary',
  withoutApt: `install kubectl and set ${KUBECTL_ENV} to it (macOS: brew install kubectl, then ${KUBECTL_ENV}=$(brew --prefix)/bin/kubectl)`,
};

/** Run as root, in this order, with DEBIAN_FRONTEND=noninteractive. */
export const KUBECTL_INSTALL_STEPS = aptInstallSteps(KUBECTL.aptPackage);

export function planKubectl(facts: BinaryFacts): BinaryPlan {
  return planBinary(KUBECTL, facts);
}
