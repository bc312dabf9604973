// deploy/kubernetes/ under `podman kube play`: Redis from the StatefulSet's pod template on its
// claim, and the mock's Pod from the Deployment (kube-play-objects.ts says what Podman needs
// changed). Redis runs as the manifest says (uid 999, read-only root, a password); the mock's pod
// starts, runs as the manifest says (uid 1000, read-only root, one worker from its CPU limit, the
// ConfigMap's scenarios), and answers its probes: their httpGet requests, sent as the kubelet sends
// them, to the port the probe names (published on the host).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import type { IDeployment, IStatefulSet } from 'kubernetes-models/apps/v1';
import type { IConfigMap, IContainer } from 'kubernetes-models/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byKind, loadManifests } from '../deploy/k8s-manifests.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from './compose-project.js';
import { playable, type Playable } from './kube-play-objects.js';
import { ensureMockImage } from './mock-image.js';
import { podman, podmanOk, TIMEOUTS } from './podman.js';
import { ensureRedisImage } from './stand-in-images.js';

const START_LIMIT_MS = 90_000;
const documents = loadManifests();
const deployment = byKind<IDeployment>(documents, 'Deployment').get('shortlink-mock') as IDeployment;
const manifestMock = deployment.spec?.template.spec?.containers[0] as IContainer;
const prefix = `shortlink-mock-test-${randomBytes(3).toString('hex')}`;
const network = `${prefix}-net`;
const dir = mkdtempSync(join(tmpdir(), 'slm-kube-play-'));
const token = randomBytes(12).toString('hex');
const redisPassword = randomBytes(12).toString('hex');
let play: Playable;
let url: string;
const mockContainer = `${prefix}-mock-pod-0-mock`;
const redisContainer = `${prefix}-redis-redis`;
/** Anonymous volumes of the mock's container (the image's VOLUME /data), removed with it. */
let anonymous: string[] = [];

const exitCode = async (args: string[]): Promise<number | null> => (await podman(['exec', mockContainer, ...args], TIMEOUTS.quick)).code;
/** The probe's httpGet as the kubelet judges it: 0 for a status from 200 to 399, else 1 (no answer within its timeout too). */
const probe = async (which: 'readinessProbe' | 'livenessProbe'): Promise<number> => {
  const get = manifestMock[which]?.httpGet;
  const named = manifestMock.ports?.find((port) => port.name === get?.port || port.containerPort === get?.port);
  if (!get || !named) throw new Error(`the manifest's ${which} is no httpGet on a port of the container`);
  try {
    const res = await fetch(`${url}${get.path ?? '/'}`, { signal: AbortSignal.timeout((manifestMock[which]?.timeoutSeconds ?? 1) * 1000) });
    return res.status >= 200 && res.status < 400 ? 0 : 1;
  } catch {
    return 1;
  }
};

async function kubePlay(file: string, objects: object[]): Promise<void> {
  writeFileSync(join(dir, file), objects.map((object) => yaml.dump(object)).join('---\n'));
  await podmanOk(['kube', 'play', '--network', network, join(dir, file)], 3 * TIMEOUTS.quick);
}

beforeAll(async () => {
  const [image] = await Promise.all([ensureMockImage(), ensureRedisImage()]);
  const hostPort = await freePort();
  url = `http://127.0.0.1:${hostPort}`;
  play = playable(byKind<IStatefulSet>(documents, 'StatefulSet').get('shortlink-mock-redis') as IStatefulSet, deployment, byKind<IConfigMap>(documents, 'ConfigMap').get('shortlink-mock-scenarios') as IConfigMap, { prefix, image, token, redisPassword, hostPort });
  await podmanOk(['network', 'create', network]);
  for (const secret of play.secrets) {
    writeFileSync(join(dir, `${secret.name}.json`), secret.json);
    await podmanOk(['secret', 'create', secret.name, join(dir, `${secret.name}.json`)]);
  }
  await kubePlay('redis.yaml', play.redis);
  await kubePlay('mock.yaml', play.mock);
  anonymous = (await podmanOk(['container', 'inspect', '--format', '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}', mockContainer])).trim().split(/\s+/).filter((name) => name && !name.startsWith(prefix));
  // Until Redis answers, the mock exits 2 at start and the pod's restart policy starts it again.
  expect(await eventually(() => probe('readinessProbe'), (code) => code === 0, START_LIMIT_MS)).toBe(0);
}, TIMEOUTS.build);

afterAll(async () => {
  await podman(['pod', 'rm', '--force', `${prefix}-mock-pod-0`, play?.redisPod ?? `${prefix}-redis`], 2 * TIMEOUTS.quick);
  for (const volume of [...(play?.volumes ?? []), ...anonymous]) await podman(['volume', 'rm', '--force', volume]);
  for (const secret of play?.secrets ?? []) await podman(['secret', 'rm', secret.name]);
  await podman(['network', 'rm', '--force', network]);
  rmSync(dir, { recursive: true, force: true });
}, 3 * TIMEOUTS.quick);

describe('deploy/kubernetes under podman kube play', () => {
  it('Redis runs from the StatefulSet pod template, AOF on, its files on the claim, as uid 999 behind its password', async () => {
    expect((await podmanOk(['exec', redisContainer, 'redis-cli', 'config', 'get', 'appendonly'])).split('\n')[1]?.trim()).toBe('yes');
    expect((await podmanOk(['exec', redisContainer, 'id', '-u'])).trim()).toBe('999');
    // Without the password (REDISCLI_AUTH unset): refused.
    const anonymous = await podman(['exec', redisContainer, 'env', '-u', 'REDISCLI_AUTH', 'redis-cli', 'ping'], TIMEOUTS.quick);
    expect(`${anonymous.stdout}${anonymous.stderr}`).toMatch(/NOAUTH/);
    expect(await podmanOk(['exec', redisContainer, 'ls', '/data/appendonlydir'])).toContain('appendonly.aof.manifest');
    expect((await podman(['volume', 'exists', `${prefix}-redis-data`])).code).toBe(0);
  });

  it('the mock pod runs as the manifest says: uid 1000, read-only root, workers from its CPU limit, the ConfigMap scenarios', async () => {
    expect((await podmanOk(['exec', mockContainer, 'id', '-u'])).trim()).toBe('1000');
    expect(await exitCode(['sh', '-c', 'echo x > /written-by-test'])).not.toBe(0);
    expect((await podmanOk(['exec', mockContainer, 'printenv', 'MOCK_WORKERS'])).trim()).toBe('1');
    const res = await fetch(`${url}/__admin/scenarios`, { headers: { 'x-admin-token': token }, signal: AbortSignal.timeout(5000) });
    const { scenarios } = (await res.json()) as { scenarios: { name: string }[] };
    expect(scenarios.map((scenario) => scenario.name)).toContain('slow-create');
  });

  it("why MOCK_WORKERS follows limits.cpu and not --workers auto: in the pod, auto would count the machine's CPUs, not the limit", async () => {
    // The limit is in force (a CFS quota of one CPU per period, cgroup v2 or v1)...
    const quota = (await podmanOk(['exec', mockContainer, 'sh', '-c', 'cat /sys/fs/cgroup/cpu.max 2>/dev/null || echo "$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us) $(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us)"'])).trim().split(/\s+/).map(Number);
    expect(quota[0]).toBe(quota[1]);
    // ...and Node 20's availableParallelism(), what `auto` reads, does not see it.
    expect(Number(await podmanOk(['exec', mockContainer, 'node', '-p', 'require("node:os").availableParallelism()']))).toBe(availableParallelism());
  });

  it('answers the API on its port, on Redis', async () => {
    const res = await fetch(`${url}/links`, {
      method: 'POST',
      headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
      body: JSON.stringify({ destinationUrl: 'https://example.com/kube', domain: 'short.test', tags: [] }),
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(201);
  });

  it('answers its probes: ready and alive; with Redis gone, alive but not ready', async () => {
    expect(await probe('readinessProbe')).toBe(0);
    expect(await probe('livenessProbe')).toBe(0);
    await podmanOk(['pod', 'stop', '--time', '2', play.redisPod], TIMEOUTS.quick);
    expect(await eventually(() => probe('readinessProbe'), (code) => code !== 0, 30_000)).toBe(1);
    expect(await probe('livenessProbe')).toBe(0);
  });
});
