// What a schema cannot see in deploy/kubernetes/ (as `kubectl apply -k` renders it): the objects
// name each other right (selectors, Services, the Secrets, the ConfigMap, the Redis URL with its
// password, the NetworkPolicy, the disruption budget), the probes ask the token-less routes over
// HTTP on the port the mock listens on, the mock's settings are real env twins that the CLI
// accepts, Redis runs hardened as the mock does, and the custom scenarios load.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDeployment, IStatefulSet } from 'kubernetes-models/apps/v1';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import type { IConfigMap, IContainer, IEnvVar, IProbe, IService } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { OPTIONS, parseConfig } from '../../src/process/config.js';
import { loadScenarios } from '../helpers/test-app.js';
import { byKind } from './k8s-manifests.js';
import { rendered } from './rendered.js';

const documents = rendered();
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
const redisContainer = redis.spec?.template.spec?.containers[0] as IContainer;
const envOf = (name: string, container = mock) => container.env?.find((variable) => variable.name === name);
const mockLabels = deployment.spec?.template.metadata?.labels;
const redisLabels = redis.spec?.template.metadata?.labels;
/** What the kubelet makes of `$(NAME)` in a value: the value of an earlier variable of the container. */
const expand = (value: string, earlier: Record<string, string>): string => value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => earlier[name] ?? whole);
/** The names `$(NAME)` refers to in a value. */
const referenced = (value: string | undefined): string[] => [...(value ?? '').matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)].map((m) => m[1] as string);
// The guides that tell how to run them: docs/kubernetes.md, and docs/container.md for the image.
const k8sSection = readFileSync('docs/kubernetes.md', 'utf8');
const containerGuide = readFileSync('docs/container.md', 'utf8');

/** The guide's command that creates the Secret (in a namespace or not). */
const createsSecret = (name: string | undefined, key: string | undefined): RegExp => new RegExp(`kubectl (-n \\S+ )?create secret generic ${name} --from-literal=${key}=`);

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
    expect(envOf('MOCK_DB')?.value).toBe(`redis://:$(REDIS_PASSWORD)@${redisService.metadata?.name}:${redisService.spec?.ports?.[0]?.port}`);
  });

  it("Redis asks for a password from a Secret, and the mock's MOCK_DB carries the same Secret's value", () => {
    const password = (container: IContainer, name: string) => envOf(name, container)?.valueFrom?.secretKeyRef;
    const ref = password(redisContainer, 'REDIS_PASSWORD');
    expect(ref).toBeDefined();
    expect(redisContainer.args?.slice(-2)).toEqual(['--requirepass', '$(REDIS_PASSWORD)']);
    expect(password(redisContainer, 'REDISCLI_AUTH')).toEqual(ref);
    expect(password(mock, 'REDIS_PASSWORD')).toEqual(ref);
    // $(REDIS_PASSWORD) is expanded only when the variable is defined before the one that uses it.
    const names = (container: IContainer) => (container.env ?? []).map((variable: IEnvVar) => variable.name);
    expect(names(mock).indexOf('REDIS_PASSWORD')).toBeLessThan(names(mock).indexOf('MOCK_DB'));
    expect(names(redisContainer)).toContain('REDIS_PASSWORD');
    expect(k8sSection).toMatch(createsSecret(ref?.name, ref?.key));
  });

  it('a NetworkPolicy lets only the mock pods reach Redis, on its port', () => {
    const policy = one<INetworkPolicy>('NetworkPolicy', 'shortlink-mock-redis');
    expect(selects(policy.spec?.podSelector.matchLabels, redisLabels)).toBe(true);
    expect(policy.spec?.policyTypes).toEqual(['Ingress']);
    expect(policy.spec?.ingress).toHaveLength(1);
    const [rule] = policy.spec?.ingress ?? [];
    expect(rule?.from).toHaveLength(1);
    expect(rule?.from?.[0]?.namespaceSelector).toBeUndefined();
    expect(selects(rule?.from?.[0]?.podSelector?.matchLabels, mockLabels)).toBe(true);
    expect(selects(rule?.from?.[0]?.podSelector?.matchLabels, redisLabels)).toBe(false);
    expect(rule?.ports).toEqual([{ protocol: 'TCP', port: redisContainer.ports?.[0]?.containerPort }]);
  });

  it('a disruption budget and topology spread keep the replicas apart and serving', () => {
    const budget = one<IPodDisruptionBudget>('PodDisruptionBudget', 'shortlink-mock');
    expect(selects(budget.spec?.selector?.matchLabels, mockLabels)).toBe(true);
    expect(budget.spec?.maxUnavailable).toBe(1);
    const spread = podSpec?.topologySpreadConstraints ?? [];
    expect(spread.map((constraint) => constraint.topologyKey).sort()).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
    for (const constraint of spread) {
      expect(selects(constraint.labelSelector?.matchLabels, mockLabels)).toBe(true);
      expect(constraint.whenUnsatisfiable).toBe('ScheduleAnyway');
    }
  });

  it('the admin token comes from the Secret that the Kubernetes guide tells how to create', () => {
    const ref = envOf('MOCK_ADMIN_TOKEN')?.valueFrom?.secretKeyRef;
    expect(ref).toBeDefined();
    expect(k8sSection).toMatch(createsSecret(ref?.name, ref?.key));
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
  it('the probes start no process: httpGet of the token-less routes, on the port the mock listens on', () => {
    const listens = Number(envOf('MOCK_PORT')?.value);
    const portOf = (probe: IProbe | undefined) => {
      const port = probe?.httpGet?.port;
      return typeof port === 'number' ? port : mock.ports?.find((named) => named.name === port)?.containerPort;
    };
    expect(mock.readinessProbe?.exec).toBeUndefined();
    expect(mock.livenessProbe?.exec).toBeUndefined();
    expect(mock.readinessProbe?.httpGet?.path).toBe('/__admin/ready');
    // Alive whatever Redis does: restarting the mock does not bring Redis back.
    expect(mock.livenessProbe?.httpGet?.path).toBe('/openapi.yaml');
    expect([portOf(mock.readinessProbe), portOf(mock.livenessProbe)]).toEqual([listens, listens]);
    expect(mock.readinessProbe?.httpGet?.httpHeaders).toBeUndefined();
    // Room for the ready route's Redis PING bound (1 s).
    expect(mock.readinessProbe?.timeoutSeconds).toBeGreaterThan(1);
  });

  it('Redis runs as hardened as the mock: non-root by number, no privilege escalation, read-only root, no capabilities', () => {
    expect(redisContainer.securityContext).toEqual(mock.securityContext);
    const redisPodSecurity = redis.spec?.template.spec?.securityContext;
    expect(redisPodSecurity?.runAsNonRoot).toBe(true);
    expect(typeof redisPodSecurity?.runAsUser).toBe('number');
    // The claim is writable by that user's group.
    expect(redisPodSecurity?.fsGroup).toBe(redisPodSecurity?.runAsGroup);
  });

  it('Redis is of a line Redis still supports (8.x; 7.0 reached its end of life)', () => {
    expect(redisContainer.image).toMatch(/^docker\.io\/library\/redis:8\.\d+/);
  });

  it('has requests and limits, and MOCK_WORKERS follows its own CPU limit', () => {
    expect(Object.keys(mock.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(mock.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(envOf('MOCK_WORKERS')?.valueFrom?.resourceFieldRef).toEqual({ containerName: mock.name, resource: 'limits.cpu', divisor: '1' });
  });

  it('sets only real env twins (and the parts they are made of), and the CLI accepts them as the pod gets them', () => {
    const twins = new Set(OPTIONS.map((option) => option.env));
    const parts = new Set((mock.env ?? []).flatMap((variable) => referenced(variable.value)));
    expect((mock.env ?? []).filter((variable) => !twins.has(variable.name) && !parts.has(variable.name))).toEqual([]);
    // What the kubelet hands the pod: each Secret's value, the CPU limit rounded up to whole CPUs,
    // and $(NAME) expanded from the variables before it.
    const secrets: Record<string, string> = { 'shortlink-mock-admin': 'a-token', 'shortlink-mock-redis': '0a1b2c3d' };
    const resolved: Record<string, string> = {};
    for (const v of mock.env ?? []) {
      const ref = v.valueFrom?.secretKeyRef;
      resolved[v.name] = v.value !== undefined ? expand(v.value, resolved) : ref ? (secrets[ref.name ?? ''] ?? '?') : String(Math.ceil(Number(mock.resources?.limits?.['cpu'])));
    }
    const config = parseConfig([], resolved);
    expect(config).toMatchObject({ host: '0.0.0.0', port: mock.ports?.[0]?.containerPort, adminToken: 'a-token', workers: 1, db: 'redis://:0a1b2c3d@shortlink-mock-redis:6379' });
  });

  it('runs the image the container guide pushes to a registry, as a non-root user', () => {
    expect(k8sSection).toContain(`\`${mock.image}\``);
    expect(containerGuide).toContain(`docker push ${mock.image}\n`);
    expect(podSpec?.securityContext?.runAsNonRoot).toBe(true);
  });
});
