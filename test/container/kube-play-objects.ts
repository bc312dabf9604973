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
//   - the Secret is a Podman secret holding {key: base64 value}, what Podman 4.3 reads for a
//     secretKeyRef (its own `kube play` of a Secret stores a form its secretKeyRef cannot read).
import type { IDeployment, IStatefulSet } from 'kubernetes-models/apps/v1';
import type { IConfigMap, IContainer, IPodSpec } from 'kubernetes-models/v1';

export interface PlayNames {
  prefix: string;
  image: string;
  token: string;
  hostPort: number;
}

export interface Playable {
  redis: object[];
  mock: object[];
  /** The Podman secret's name and content. */
  secret: { name: string; json: string };
  /** What `kube play` makes that outlives its pods: volumes (the claim, the ConfigMap's). */
  volumes: string[];
  redisPod: string;
}

/** The Redis StatefulSet as Podman can play it: its claim template as a claim, its pod template as a Pod. */
function redisObjects(statefulSet: IStatefulSet, prefix: string): { objects: object[]; pod: string; claimName: string } {
  const claim = statefulSet.spec?.volumeClaimTemplates?.[0];
  if (!claim?.metadata?.name || !statefulSet.spec) throw new Error('the Redis StatefulSet has no claim template');
  const pod = `${prefix}-redis`;
  const claimName = `${prefix}-redis-data`;
  const template = structuredClone(statefulSet.spec.template);
  const spec: IPodSpec = { ...(template.spec as IPodSpec), volumes: [{ name: claim.metadata.name, persistentVolumeClaim: { claimName } }] };
  return {
    objects: [
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: claimName }, spec: claim.spec },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: pod, labels: template.metadata?.labels }, spec },
    ],
    pod,
    claimName,
  };
}

/** The Deployment's copy: one replica, the test's names, image and host port; returns the Secret's key. */
function adaptDeployment(mock: IDeployment, names: PlayNames, redisPod: string, secretName: string, scenarios: string): string {
  mock.metadata = { ...mock.metadata, name: `${names.prefix}-mock` };
  if (!mock.spec?.template.spec) throw new Error('the Deployment has no pod spec');
  mock.spec.replicas = 1;
  const podSpec = mock.spec.template.spec;
  const container = podSpec.containers[0] as IContainer;
  container.image = names.image;
  for (const port of container.ports ?? []) port.hostPort = names.hostPort;
  let secretKey = 'token';
  for (const variable of container.env ?? []) {
    if (variable.name === 'MOCK_DB' && variable.value) variable.value = variable.value.replace(/\/\/[^:/]+/, `//${redisPod}`);
    const ref = variable.valueFrom?.secretKeyRef;
    if (ref) {
      ref.name = secretName;
      secretKey = ref.key;
    }
  }
  for (const volume of podSpec.volumes ?? []) if (volume.configMap) volume.configMap.name = scenarios;
  return secretKey;
}

export function playable(statefulSet: IStatefulSet, deployment: IDeployment, configMap: IConfigMap, names: PlayNames): Playable {
  const redis = redisObjects(statefulSet, names.prefix);
  const scenarios = `${names.prefix}-scenarios`;
  const secretName = `${names.prefix}-admin`;
  const mock = structuredClone(deployment);
  const secretKey = adaptDeployment(mock, names, redis.pod, secretName, scenarios);
  const renamedConfigMap = { ...structuredClone(configMap), metadata: { ...configMap.metadata, name: scenarios } };
  return {
    redis: redis.objects,
    mock: [renamedConfigMap, mock],
    secret: { name: secretName, json: JSON.stringify({ [secretKey]: Buffer.from(names.token).toString('base64') }) },
    volumes: [redis.claimName, scenarios],
    redisPod: redis.pod,
  };
}
