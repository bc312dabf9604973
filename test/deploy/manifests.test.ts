// Every object `kubectl apply -k deploy/kubernetes` sends (the kustomize render) is valid against
// the Kubernetes API's schemas, and the check is real: a broken copy of each kind is refused.
import { describe, expect, it } from 'vitest';
import { type Document, type Manifest, validateManifest } from './k8s-manifests.js';
import { unknownFields } from './known-fields.js';
import { rendered } from './rendered.js';

const documents = rendered();
const named = (kind: string, name: string): Manifest => {
  const found = documents.find((d) => d.object.kind === kind && d.object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return structuredClone(found.object);
};
// A path into a copy: set(copy, ['spec', 'replicas'], '3').
const set = (object: Manifest, path: (string | number)[], value: unknown): Manifest => {
  let at = object as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1) as string | number] = value;
  return object;
};
const MOCK_CONTAINER = ['spec', 'template', 'spec', 'containers', 0];

describe('deploy/kubernetes, rendered, against the Kubernetes API schemas (kubernetes-models)', () => {
  it('holds the objects of the shared mock', () => {
    expect(documents.map((d: Document) => `${d.object.kind}/${d.object.metadata.name}`).sort()).toEqual([
      'ConfigMap/shortlink-mock-scenarios',
      'Deployment/shortlink-mock',
      'NetworkPolicy/shortlink-mock-redis',
      'PodDisruptionBudget/shortlink-mock',
      'Service/shortlink-mock',
      'Service/shortlink-mock-redis',
      'StatefulSet/shortlink-mock-redis',
    ]);
  });

  it.each(documents.map((d) => [`${d.file}: ${d.object.kind} ${d.object.metadata.name}`, d.object] as const))('%s is valid', (_name, object) => {
    expect(() => validateManifest(object)).not.toThrow();
  });
});

describe('a broken manifest is refused', () => {
  it.each([
    ['replicas as a string', () => set(named('Deployment', 'shortlink-mock'), ['spec', 'replicas'], '3'), /spec\/replicas must be integer/],
    ['a container port as an object', () => set(named('Deployment', 'shortlink-mock'), [...MOCK_CONTAINER, 'ports', 0, 'containerPort'], { port: 4010 }), /containerPort must be integer/],
    ['a probe port as an object', () => set(named('Deployment', 'shortlink-mock'), [...MOCK_CONTAINER, 'readinessProbe'], { httpGet: { path: '/__admin/ready', port: { n: 4010 } } }), /httpGet\/port must/],
    ['a NetworkPolicy whose policy types are a string', () => set(named('NetworkPolicy', 'shortlink-mock-redis'), ['spec', 'policyTypes'], 'Ingress'), /policyTypes must be array/],
    ['a disruption budget whose selector is a list', () => set(named('PodDisruptionBudget', 'shortlink-mock'), ['spec', 'selector'], [{ app: 'x' }]), /selector must be object/],
    ['a Deployment without a selector', () => set(named('Deployment', 'shortlink-mock'), ['spec', 'selector'], undefined), /must have required property selector/],
    ['a memory limit that is no quantity', () => set(named('Deployment', 'shortlink-mock'), [...MOCK_CONTAINER, 'resources', 'limits', 'memory'], ['384Mi']), /limits\/memory must/],
    ['a Service port as a string', () => set(named('Service', 'shortlink-mock'), ['spec', 'ports', 0, 'port'], '4010'), /ports\/0\/port must be integer/],
    ['a claim template whose access modes are a string', () => set(named('StatefulSet', 'shortlink-mock-redis'), ['spec', 'volumeClaimTemplates', 0, 'spec', 'accessModes'], 'ReadWriteOnce'), /accessModes must be array/],
    ['ConfigMap data that is not text', () => set(named('ConfigMap', 'shortlink-mock-scenarios'), ['data', 'slow-create.yaml'], { name: 'slow-create' }), /must be string/],
    ['an unknown apiVersion', () => set(named('Deployment', 'shortlink-mock'), ['apiVersion'], 'apps/v1beta1'), /no schema known for apiVersion apps\/v1beta1/],
  ])('%s', (_name, broken, message) => {
    expect(() => validateManifest(broken())).toThrow(message);
  });
});

describe('no field the Kubernetes API lacks (what kubectl --validate=strict refuses)', () => {
  it('every object names known fields only, and a misspelt one is caught', () => {
    const misspelt = named('Deployment', 'shortlink-mock');
    const container = (misspelt['spec'] as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers[0] as Record<string, unknown>;
    container['readinesProbe'] = container['readinessProbe'];
    delete container['readinessProbe'];
    const found = unknownFields([...documents.map((d) => d.object), misspelt]);
    expect(found.slice(0, -1)).toEqual(documents.map(() => []));
    expect(found.at(-1)).toEqual(['readinesProbe']);
  });
});
