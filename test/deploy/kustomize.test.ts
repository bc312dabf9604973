// `kubectl apply -k deploy/kubernetes`: kustomization.yaml names every manifest of the directory,
// the render is those objects as written (the placeholder image, no namespace), and the image and
// namespace a team sets with `kustomize edit set image` / `set namespace` land on every object,
// still valid. Rendered by real kubectl (kubectl kustomize), on a copy of the directory.
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import type { IDeployment, IStatefulSet } from 'kubernetes-models/apps/v1';
import { afterAll, describe, expect, it } from 'vitest';
import { byKind, K8S_DIR, KUSTOMIZATION, loadManifests, readKustomization, validateManifest, type Document } from './k8s-manifests.js';
import { rendered } from './rendered.js';

const PLACEHOLDER = 'registry.example.com/your-team/shortlink-mock';
const key = (d: Document): string => `${d.object.kind}/${d.object.metadata.name}`;
const sorted = (documents: Document[]): Document['object'][] => [...documents].sort((a, b) => key(a).localeCompare(key(b))).map((d) => d.object);
const imageOf = (documents: Document[], kind: 'Deployment' | 'StatefulSet', name: string): string | undefined =>
  (byKind<IDeployment | IStatefulSet>(documents, kind).get(name)?.spec?.template.spec?.containers[0]?.image);

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A copy of deploy/kubernetes whose kustomization.yaml has what `kustomize edit` would have written. */
function editedCopy(edit: (kustomization: ReturnType<typeof readKustomization>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'slm-kustomize-'));
  copies.push(dir);
  cpSync(K8S_DIR, dir, { recursive: true });
  const kustomization = readKustomization(dir);
  edit(kustomization);
  writeFileSync(join(dir, KUSTOMIZATION), yaml.dump(kustomization));
  return dir;
}

describe('deploy/kubernetes/kustomization.yaml', () => {
  it('names every manifest of the directory, and the render is exactly those objects', () => {
    const files = readdirSync(K8S_DIR).filter((file) => /\.ya?ml$/.test(file) && file !== KUSTOMIZATION);
    expect([...readKustomization().resources].sort()).toEqual(files.sort());
    expect(sorted(rendered())).toEqual(sorted(loadManifests()));
  });

  it('keeps the placeholder image and no namespace by default', () => {
    const documents = rendered();
    expect(imageOf(documents, 'Deployment', 'shortlink-mock')).toBe(`${PLACEHOLDER}:0.1.0`);
    expect(documents.filter((d) => d.object.metadata.namespace !== undefined)).toEqual([]);
  });

  it('sets the image and the namespace as `kustomize edit set image` and `set namespace` write them, on every object, still valid', () => {
    const dir = editedCopy((kustomization) => {
      kustomization.namespace = 'mocks';
      kustomization.images = (kustomization.images ?? []).map((image) => (image.name === PLACEHOLDER ? { name: PLACEHOLDER, newName: 'registry.test/team/shortlink-mock', newTag: '1.2.3' } : image));
    });
    const documents = rendered(dir);
    expect(imageOf(documents, 'Deployment', 'shortlink-mock')).toBe('registry.test/team/shortlink-mock:1.2.3');
    expect(imageOf(documents, 'StatefulSet', 'shortlink-mock-redis')).toBe(imageOf(rendered(), 'StatefulSet', 'shortlink-mock-redis'));
    expect(documents.map((d) => `${key(d)} ${d.object.metadata.namespace}`)).toEqual(documents.map((d) => `${key(d)} mocks`));
    for (const d of documents) expect(() => validateManifest(d.object)).not.toThrow();
  });

  it("sets Redis's image the same way", () => {
    const dir = editedCopy((kustomization) => {
      kustomization.images = [...(kustomization.images ?? []).filter((image) => image.name !== 'docker.io/library/redis'), { name: 'docker.io/library/redis', newTag: '8.2.3-bookworm' }];
    });
    expect(imageOf(rendered(dir), 'StatefulSet', 'shortlink-mock-redis')).toBe('docker.io/library/redis:8.2.3-bookworm');
  });
});
