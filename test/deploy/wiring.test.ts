// What a schema cannot see in deploy/kubernetes/: the objects name each other right (selectors,
// Services, the Secret, the ConfigMap, the Redis URL), the probes ask /__admin/health, the mock's
// settings are real env twins that the CLI accepts, and the custom scenarios load.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDeployment, IStatefulSet } from 'kubernetes-models/apps/v1';
import type { IConfigMap, IContainer, IService } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { OPTIONS, parseConfig } from '../../src/process/config.js';
import { loadScenarios } from '../helpers/test-app.js';
import { byKind, loadManifests } from './k8s-manifests.js';

const documents = loadManifests();
const one = <T>(kind: string, name: string): T => {
  const found = byKind<T>(documents, kind).get(name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return found;
};
const deployment = one<IDeployment>('Deployment', 'shortlink-mock');
const redis = one<IStatefulSet>('StatefulSet', 'shortlink-mock-redis');
const mockService = one<IService>('Service', 'shortlink-mock');
const redisService = one<IService>('Service', 'shortlink-mock-redis');
const podSpec = deployment.spec?.template.spec;
const mock = podSpec?.containers[0] as IContainer;
const envOf = (name: string) => mock.env?.find((variable) => variable.name === name);
// The guides that tell how to run them: docs/kubernetes.md, and docs/container.md for the image.
const k8sSection = readFileSync('docs/kubernetes.md', 'utf8');
const containerGuide = readFileSync('docs/container.md', 'utf8');

/** Every label a selector asks for is on the pods. */
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean =>
  Object.keys(selector ?? {}).length > 0 && Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);

describe('the objects name each other right', () => {
  it('the Deployment and its Service select the mock pods, on their named port', () => {
    const labels = deployment.spec?.template.metadata?.labels;
    expect(selects(deployment.spec?.selector.matchLabels, labels)).toBe(true);
    expect(selects(mockService.spec?.selector, labels)).toBe(true);
    expect(mock.ports?.map((port) => port.name)).toContain(mockService.spec?.ports?.[0]?.targetPort);
    expect(deployment.spec?.replicas).toBe(3);
  });

  it('Redis: a StatefulSet with a claim on /data and AOF on, named by a headless Service and by MOCK_DB', () => {
    const redisPod = redis.spec?.template;
    expect(selects(redis.spec?.selector.matchLabels, redisPod?.metadata?.labels)).toBe(true);
    expect(selects(redisService.spec?.selector, redisPod?.metadata?.labels)).toBe(true);
    expect(redis.spec?.serviceName).toBe(redisService.metadata?.name);
    expect(redisService.spec?.clusterIP).toBe('None');
    const claim = redis.spec?.volumeClaimTemplates?.[0]?.metadata?.name;
    expect(redisPod?.spec?.containers[0]?.volumeMounts).toContainEqual({ name: claim, mountPath: '/data' });
    expect(redisPod?.spec?.containers[0]?.args?.join(' ')).toContain('--appendonly yes');
    expect(envOf('MOCK_DB')?.value).toBe(`redis://${redisService.metadata?.name}:${redisService.spec?.ports?.[0]?.port}`);
  });

  it('the admin token comes from the Secret that the Kubernetes guide tells how to create', () => {
    const ref = envOf('MOCK_ADMIN_TOKEN')?.valueFrom?.secretKeyRef;
    expect(ref).toBeDefined();
    expect(k8sSection).toContain(`kubectl create secret generic ${ref?.name} --from-literal=${ref?.key}=`);
  });

  it('the scenarios ConfigMap exists, is mounted where MOCK_SCENARIOS reads, and its files load against the contract', () => {
    const volume = podSpec?.volumes?.find((v) => v.configMap !== undefined);
    const configMap = one<IConfigMap>('ConfigMap', volume?.configMap?.name ?? '(none)');
    expect(mock.volumeMounts).toContainEqual({ name: volume?.name, mountPath: envOf('MOCK_SCENARIOS')?.value, readOnly: true });
    const dir = mkdtempSync(join(tmpdir(), 'slm-k8s-scenarios-'));
    try {
      for (const [file, text] of Object.entries(configMap.data ?? {})) writeFileSync(join(dir, file), text);
      expect(loadScenarios(dir).map((scenario) => scenario.name)).toEqual(['slow-create']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the mock container', () => {
  it('both probes ask /__admin/health on the container port, with the admin token', () => {
    const port = mock.ports?.[0]?.containerPort;
    for (const probe of [mock.readinessProbe, mock.livenessProbe]) {
      const script = probe?.exec?.command?.join(' ') ?? '';
      expect(script).toContain(`http://127.0.0.1:${port}/__admin/health`);
      expect(script).toContain('process.env.MOCK_ADMIN_TOKEN');
    }
  });

  it('has requests and limits, and MOCK_WORKERS follows its own CPU limit', () => {
    expect(Object.keys(mock.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(mock.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(envOf('MOCK_WORKERS')?.valueFrom?.resourceFieldRef).toEqual({ containerName: mock.name, resource: 'limits.cpu', divisor: '1' });
  });

  it('sets only real env twins, and the CLI accepts them as the pod gets them', () => {
    const twins = new Set(OPTIONS.map((option) => option.env));
    expect((mock.env ?? []).filter((variable) => !twins.has(variable.name))).toEqual([]);
    // What the kubelet hands the pod: the Secret's value, the CPU limit rounded up to whole CPUs.
    const resolved = Object.fromEntries((mock.env ?? []).map((v) => [v.name, v.value ?? (v.valueFrom?.secretKeyRef ? 'a-token' : String(Math.ceil(Number(mock.resources?.limits?.['cpu']))))]));
    const config = parseConfig([], resolved);
    expect(config).toMatchObject({ host: '0.0.0.0', port: mock.ports?.[0]?.containerPort, adminToken: 'a-token', workers: 1 });
  });

  it('runs the image the container guide pushes to a registry, as a non-root user', () => {
    expect(k8sSection).toContain(`\`${mock.image}\``);
    expect(containerGuide).toContain(`docker push ${mock.image}\n`);
    expect(podSpec?.securityContext?.runAsNonRoot).toBe(true);
  });
});
