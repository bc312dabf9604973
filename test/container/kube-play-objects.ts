// deploy/kubernetes/ made playable by `podman kube play` (Podman 4.3, Debian bookworm's), with as
// few changes as Podman's gaps demand, each named here:
//   - Redis: Podman plays no StatefulSet, so its pod template becomes a Pod, and its claim template
//     a PersistentVolumeClaim (a Podman volume) that the Pod mounts where the StatefulSet does;
//   - no Services either: MOCK_DB names the Redis pod (Podman's network resolves pod names)
//     instead of the Service in front of it;
//   - the Deployment plays one replica: Podman publishes a pod's containerPort on the host, so
//     three would fight for one port (the three-replica topology runs under compose.test.ts);
//   - names get the test's prefix (Podman's pods, volumes and secrets are machine-wide), the image
//     is the one the tests built, the host port a free one;
//   - each Secret (the admin token, Redis's password) is a Podman secret holding {key: base64
//     value}, what Podman 4.3 reads for a secretKeyRef (its own `kube play` of a Secret stores a
//     form its secretKeyRef cannot read);
//   - `$(REDIS_PASSWORD)` in Redis's args and in MOCK_DB is written out with the test's password:
//     the kubelet expands such references, and whether Podman 4.3 does is not relied on.
import type { IDeployment, IStatefulSet } from 'kubernetes-models/apps/v1';
import type { IConfigMap, IContainer, IPodSpec } from 'kubernetes-models/v1';

export interface PlayNames {
  prefix: string;
  image: string;
  token: string;
  /** Redis's password (the Secret shortlink-mock-redis). */
  redisPassword: string;
  hostPort: number;
}

/** The manifests' Secrets, each with the key it is read by and the test's value for it. */
const SECRETS = (names: PlayNames): Record<string, { key: string; value: string }> => ({
  'shortlink-mock-admin': { key: 'token', value: names.token },
  'shortlink-mock-redis': { key: 'password', value: names.redisPassword },
});

export interface Playable {
  redis: object[];
  mock: object[];
  /** The Podman secrets' names and contents. */
  secrets: { name: string; json: string }[];
  /** What `kube play` makes that outlives its pods: volumes (the claim, the ConfigMap's). */
  volumes: string[];
  redisPod: string;
}

/** The container's secretKeyRefs pointed at the test's Podman secrets, and `$(REDIS_PASSWORD)` written out. */
function adaptContainer(container: IContainer, names: PlayNames): void {
  const known = SECRETS(names);
  const written = (text: string) => text.replaceAll('$(REDIS_PASSWORD)', names.redisPassword);
  container.args = container.args?.map(written);
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) variable.value = written(variable.value);
    const ref = variable.valueFrom?.secretKeyRef;
    if (!ref) continue;
    if (ref.name === undefined || !known[ref.name]) throw new Error(`the manifests read a Secret the test does not make: ${ref.name}`);
    ref.name = `${names.prefix}-${ref.name}`;
  }
}

/** The Redis StatefulSet as Podman can play it: its claim template as a claim, its pod template as a Pod. */
function redisObjects(statefulSet: IStatefulSet, names: PlayNames): { objects: object[]; pod: string; claimName: string } {
  const { prefix } = names;
  const claim = statefulSet.spec?.volumeClaimTemplates?.[0];
  if (!claim?.metadata?.name || !statefulSet.spec) throw new Error('the Redis StatefulSet has no claim template');
  const pod = `${prefix}-redis`;
  const claimName = `${prefix}-redis-data`;
  const template = structuredClone(statefulSet.spec.template);
  const spec: IPodSpec = { ...(template.spec as IPodSpec), volumes: [{ name: claim.metadata.name, persistentVolumeClaim: { claimName } }] };
  for (const container of spec.containers) adaptContainer(container, names);
  return {
    objects: [
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: claimName }, spec: claim.spec },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: pod, labels: template.metadata?.labels }, spec },
    ],
    pod,
    claimName,
  };
}

/** The Deployment's copy: one replica, the test's names, image, secrets and host port. */
function adaptDeployment(mock: IDeployment, names: PlayNames, redisPod: string, scenarios: string): void {
  mock.metadata = { ...mock.metadata, name: `${names.prefix}-mock` };
  if (!mock.spec?.template.spec) throw new Error('the Deployment has no pod spec');
  mock.spec.replicas = 1;
  const podSpec = mock.spec.template.spec;
  const container = podSpec.containers[0] as IContainer;
  container.image = names.image;
  for (const port of container.ports ?? []) port.hostPort = names.hostPort;
  adaptContainer(container, names);
  // redis://:PASSWORD@shortlink-mock-redis:6379 → the Redis pod's name for the host.
  for (const variable of container.env ?? []) if (variable.name === 'MOCK_DB' && variable.value) variable.value = variable.value.replace(/@[^:/]+:/, `@${redisPod}:`);
  for (const volume of podSpec.volumes ?? []) if (volume.configMap) volume.configMap.name = scenarios;
}

export function playable(statefulSet: IStatefulSet, deployment: IDeployment, configMap: IConfigMap, names: PlayNames): Playable {
  const redis = redisObjects(statefulSet, names);
  const scenarios = `${names.prefix}-scenarios`;
  const mock = structuredClone(deployment);
  adaptDeployment(mock, names, redis.pod, scenarios);
  const renamedConfigMap = { ...structuredClone(configMap), metadata: { ...configMap.metadata, name: scenarios } };
  return {
    redis: redis.objects,
    mock: [renamedConfigMap, mock],
    secrets: Object.entries(SECRETS(names)).map(([name, { key, value }]) => ({ name: `${names.prefix}-${name}`, json: JSON.stringify({ [key]: Buffer.from(value).toString('base64') }) })),
    volumes: [redis.claimName, scenarios],
    redisPod: redis.pod,
  };
}
