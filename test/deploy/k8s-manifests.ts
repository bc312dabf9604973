// deploy/kubernetes/ as objects: the files its kustomization.yaml names (loadManifests), or what
// `kubectl kustomize` renders of it (renderManifests: what `kubectl apply -k` sends), and each
// object checked against the Kubernetes API's schemas
// (kubernetes-models: the OpenAPI schemas of the Kubernetes API, compiled to validators). Only the
// kinds the manifests use are known: any other kind, or another apiVersion, is refused rather than
// passed unchecked. The validators accept fields the schema does not name (kubectl's strict
// validation would not): known-fields.ts checks those against the models' own types.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';

export const K8S_DIR = 'deploy/kubernetes';

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** One object of a manifest file, with the file it came from. */
export interface Document {
  file: string;
  object: Manifest;
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'apps/v1 StatefulSet': StatefulSet,
  'v1 Service': Service,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
};

/** The kustomization's own file: read by kustomize, not an object of the cluster. */
export const KUSTOMIZATION = 'kustomization.yaml';
// kubectl kustomize has no network to wait on here (local files only); a bound all the same.
const RENDER_TIMEOUT_MS = 30_000;

export interface Kustomization {
  resources: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
  namespace?: string;
}

export function readKustomization(dir = K8S_DIR): Kustomization {
  return yaml.load(readFileSync(join(dir, KUSTOMIZATION), 'utf8')) as Kustomization;
}

const objectsOf = (text: string, file: string): Document[] =>
  yaml
    .loadAll(text)
    .filter((object) => object !== null && object !== undefined)
    .map((object) => ({ file, object: object as Manifest }));

/** Every object of every file the directory's kustomization.yaml names, in its order (empty documents skipped). */
export function loadManifests(dir = K8S_DIR): Document[] {
  return readKustomization(dir).resources.flatMap((file) => objectsOf(readFileSync(join(dir, file), 'utf8'), file));
}

/** What `kubectl kustomize DIR` renders (each object's `file` is the render's). Throws kubectl's words. */
export function renderManifests(kubectl: string, dir = K8S_DIR): Document[] {
  const text = execFileSync(kubectl, ['kustomize', dir], { encoding: 'utf8', timeout: RENDER_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  return objectsOf(text, `kubectl kustomize ${dir}`);
}

/** Throws, naming the object and every schema error, unless the object is valid for its kind. */
export function validateManifest(object: Manifest): void {
  const Model = MODELS[`${object.apiVersion} ${object.kind}`];
  const name = `${object.kind} ${object.metadata?.name ?? '(no name)'}`;
  if (!Model) throw new Error(`${name}: no schema known for apiVersion ${object.apiVersion} kind ${object.kind}`);
  try {
    new Model(structuredClone(object) as never).validate();
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`);
  }
}

/** The objects of one kind, by name. */
export function byKind<T = Manifest>(documents: Document[], kind: string): Map<string, T> {
  return new Map(documents.filter((d) => d.object.kind === kind).map((d) => [d.object.metadata.name, d.object as T]));
}
