// deploy/kubernetes/ as objects, and each object checked against the Kubernetes API's schemas
// (kubernetes-models: the OpenAPI schemas of the Kubernetes API, compiled to validators). Only the
// kinds the manifests use are known: any other kind, or another apiVersion, is refused rather than
// passed unchecked. The validators accept fields the schema does not name (kubectl's strict
// validation would not): known-fields.ts checks those against the models' own types.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';

export const K8S_DIR = 'deploy/kubernetes';

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
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
};

/** Every YAML document of every .yaml/.yml file of the directory (empty documents skipped). */
export function loadManifests(dir = K8S_DIR): Document[] {
  return readdirSync(dir)
    .filter((file) => /\.ya?ml$/.test(file))
    .sort()
    .flatMap((file) =>
      yaml
        .loadAll(readFileSync(join(dir, file), 'utf8'))
        .filter((object) => object !== null && object !== undefined)
        .map((object) => ({ file, object: object as Manifest })),
    );
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
