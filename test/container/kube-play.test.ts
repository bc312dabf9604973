// deploy/kubernetes/ under `podman kube play`: Redis from the StatefulSet's pod template on its
// claim, and the mock's Pod from the Deployment (kube-play-objects.ts says what Podman needs
// changed). The pod starts, runs as the manifest says (uid 1000, read-only root, one worker from
// its CPU limit, the ConfigMap's scenarios), and answers its probes: the probes' own commands,
// run in the container as the kubelet runs them (Podman 4.3 turns an exec probe into a health
// check that splits the command wrongly, so its own health check cannot stand in).
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
let play: Playable;
let url: string;
const mockContainer = `${prefix}-mock-pod-0-mock`;
const redisContainer = `${prefix}-redis-redis`;
/** Anonymous volumes of the mock's container (the image's VOLUME /data), removed with it. */
let anonymous: string[] = [];

const exitCode = async (args: string[]): Promise<number | null> => (await podman(['exec', mockContainer, ...args], TIMEOUTS.quick)).code;
const probe = (which: 'readinessProbe' | 'livenessProbe') => exitCode(manifestMock[which]?.exec?.command ?? ['false']);

async function kubePlay(file: string, objects: object[]): Promise<void> {
  writeFileSync(join(dir, file), objects.map((object) => yaml.dump(object)).join('---\n'));
  await podmanOk(['kube', 'play', '--network', network, join(dir, file)], 3 * TIMEOUTS.quick);
}

beforeAll(async () => {
  const [image] = await Promise.all([ensureMockImage(), ensureRedisImage()]);
  const hostPort = await freePort();
  url = `http://127.0.0.1:${hostPort}`;
  play = playable(byKind<IStatefulSet>(documents, 'StatefulSet').get('shortlink-mock-redis') as IStatefulSet, deployment, byKind<IConfigMap>(documents, 'ConfigMap').get('shortlink-mock-scenarios') as IConfigMap, { prefix, image, token, hostPort });
  await podmanOk(['network', 'create', network]);
  writeFileSync(join(dir, 'secret.json'), play.secret.json);
  await podmanOk(['secret', 'create', play.secret.name, join(dir, 'secret.json')]);
  await kubePlay('redis.yaml', play.redis);
  await kubePlay('mock.yaml', play.mock);
  anonymous = (await podmanOk(['container', 'inspect', '--format', '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}', mockContainer])).trim().split(/\s+/).filter((name) => name && !name.startsWith(prefix));
  // Until Redis answers, the mock exits 2 at start and the pod's restart policy starts it again.
  expect(await eventually(() => probe('readinessProbe'), (code) => code === 0, START_LIMIT_MS)).toBe(0);
}, TIMEOUTS.build);

afterAll(async () => {
  await podman(['pod', 'rm', '--force', `${prefix}-mock-pod-0`, play?.redisPod ?? `${prefix}-redis`], 2 * TIMEOUTS.quick);
  for (const volume of [...(play?.volumes ?? []), ...anonymous]) await podman(['volume', 'rm', '--force', volume]);
  await podman(['secret', 'rm', `${prefix}-admin`]);
  await podman(['network', 'rm', '--force', network]);
  rmSync(dir, { recursive: true, force: true });
}, 3 * TIMEOUTS.quick);

describe('deploy/kubernetes under podman kube play', () => {
  it('Redis runs from the StatefulSet pod template, AOF on, its files on the claim', async () => {
    expect((await podmanOk(['exec', redisContainer, 'redis-cli', 'config', 'get', 'appendonly'])).split('\n')[1]?.trim()).toBe('yes');
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
