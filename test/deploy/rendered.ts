// deploy/kubernetes as `kubectl apply -k` sends it: rendered by the kubectl the deploy project's
// set-up found or installed (test/setup/kubectl-global-setup.ts), or a failure with its words.
import { inject } from 'vitest';
import type { FoundTool } from '../setup/install-tools.js';
import { K8S_DIR, renderManifests, type Document } from './k8s-manifests.js';

export function kubectl(): string {
  const found = inject('kubectl') as FoundTool | undefined;
  if (!found) throw new Error('no kubectl: put this test file in a Vitest project whose globalSetup is test/setup/kubectl-global-setup.ts (vitest.config.ts)');
  if ('problem' in found) throw new Error(found.problem);
  return found.path;
}

export const rendered = (dir = K8S_DIR): Document[] => renderManifests(kubectl(), dir);
