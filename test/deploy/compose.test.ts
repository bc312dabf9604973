// deploy/compose.yaml, read as a Compose file is (YAML with merge keys): Redis with AOF on a volume,
// three mock replicas on it, each on a host port of its own, healthy only when /__admin/health is,
// and the same images as the Kubernetes manifests. No Compose schema library is well kept on npm,
// so the structure is checked here; the container tests run the file itself.
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import type { IDeployment, IStatefulSet } from 'kubernetes-models/apps/v1';
import { describe, expect, it } from 'vitest';
import { OPTIONS, parseConfig } from '../../src/process/config.js';
import { byKind, loadManifests } from './k8s-manifests.js';

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test?: string[] };
  depends_on?: Record<string, { condition: string }>;
}
// What Compose makes of `${NAME:-default}` when NAME is not set.
const withDefaults = (text: string): string => text.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1');
const compose = yaml.load(withDefaults(readFileSync('deploy/compose.yaml', 'utf8'))) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const { redis, lb, ...mocks } = compose.services;
const k8s = loadManifests();
const k8sMock = byKind<IDeployment>(k8s, 'Deployment').get('shortlink-mock')?.spec?.template.spec?.containers[0];
const k8sRedis = byKind<IStatefulSet>(k8s, 'StatefulSet').get('shortlink-mock-redis')?.spec?.template.spec?.containers[0];

describe('deploy/compose.yaml', () => {
  it('runs Redis with AOF on a named volume, and three mocks', () => {
    expect(Object.keys(mocks).sort()).toEqual(['mock-1', 'mock-2', 'mock-3']);
    expect(redis?.command?.join(' ')).toContain('--appendonly yes');
    const volume = redis?.volumes?.[0]?.split(':');
    expect(volume?.[1]).toBe('/data');
    expect(Object.keys(compose.volumes)).toContain(volume?.[0]);
    expect(redis?.healthcheck?.test).toEqual(["CMD-SHELL", "redis-cli ping"]);
  });

  it('HAProxy in front sends requests to the three replicas, each checked on /__admin/health with the token', () => {
    expect(lb?.image).toMatch(/^docker\.io\/library\/haproxy:/);
    expect(lb?.volumes).toEqual(['./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro']);
    expect(lb?.environment?.['MOCK_ADMIN_TOKEN']).toBe(mocks['mock-1']?.environment?.['MOCK_ADMIN_TOKEN']);
    const config = readFileSync('deploy/haproxy.cfg', 'utf8');
    expect([...config.matchAll(/^\s*server (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`)).toEqual(Object.keys(mocks).map((name) => `${name} ${name}:4010`));
    expect(config).toContain('http-check send meth GET uri /__admin/health hdr x-admin-token "${MOCK_ADMIN_TOKEN}"');
    // Only a refused connection is retried: a create sent twice could make two links.
    expect(config).toMatch(/^\s*retry-on conn-failure$/m);
  });

  it('each mock is on Redis, on a host port of its own, waits for a healthy Redis and checks its own health', () => {
    const hostPorts = Object.values(mocks).map((mock) => mock.ports?.[0]?.split(':')[0]);
    expect(hostPorts).toEqual(['4011', '4012', '4013']);
    for (const mock of Object.values(mocks)) {
      expect(mock.environment?.['MOCK_DB']).toBe('redis://redis:6379');
      expect(mock.environment?.['MOCK_ADMIN_TOKEN']).toMatch(/^\$\{MOCK_ADMIN_TOKEN:\?.+\}$/);
      expect(mock.depends_on?.['redis']?.condition).toBe('service_healthy');
      expect(mock.healthcheck?.test?.join(' ')).toContain('http://127.0.0.1:4010/__admin/health');
      expect(mock.ports?.[0]?.split(':')[1]).toBe('4010');
    }
  });

  it('sets only real env twins, which the CLI accepts', () => {
    const twins = new Set(OPTIONS.map((option) => option.env));
    for (const mock of Object.values(mocks)) {
      const environment = { ...mock.environment, MOCK_ADMIN_TOKEN: 'a-token', MOCK_HOST: '0.0.0.0' };
      expect(Object.keys(mock.environment ?? {}).filter((name) => !twins.has(name))).toEqual([]);
      expect(parseConfig([], environment)).toMatchObject({ db: 'redis://redis:6379', adminToken: 'a-token' });
    }
  });

  it('builds the mock image once: one service builds it, the three run that image', () => {
    const builders = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
    expect(builders.map(([name]) => name)).toEqual(['mock-1']);
    expect(builders[0]?.[1].build).toBe('..');
    expect(new Set(Object.values(mocks).map((mock) => mock.image))).toEqual(new Set([builders[0]?.[1].image]));
  });

  it('runs the image the container guide (docs/container.md) builds', () => {
    const tag = /^docker build -t (\S+) \.$/m.exec(readFileSync('docs/container.md', 'utf8'))?.[1];
    for (const mock of Object.values(mocks)) expect(mock.image).toBe(tag);
  });

  it('runs the same image and Redis settings as the Kubernetes manifests', () => {
    // `shortlink-mock` as built from the Dockerfile; the cluster's copy is in a registry, tagged.
    for (const mock of Object.values(mocks)) expect(k8sMock?.image).toMatch(new RegExp(`/${mock.image}:[^/]+$`));
    expect(redis?.image).toBe(k8sRedis?.image);
    // The same persistence in both: AOF, fsynced every second (docs/kubernetes.md on what that means).
    expect(redis?.command?.join(' ')).toContain('--appendonly yes --appendfsync everysec');
    expect(k8sRedis?.args?.join(' ')).toContain('--appendonly yes --appendfsync everysec');
  });
});
