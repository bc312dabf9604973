// deploy/compose.yaml run as a user runs it, with podman-compose, under a project name of the
// test's own (its containers, volume and network carry it) and with the variables the file reads
// (the admin token, the image, free host ports: one per replica and HAProxy's). Removed by that
// name only: the project's containers with their anonymous volumes (the image's VOLUME /data), its
// named volume, its network.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { runCommand, type CommandResult } from '../package/run-command.js';
import { podman, podmanEnv, podmanOk, TIMEOUTS } from './podman.js';

export const COMPOSE_FILE = join(PACKAGE_ROOT, 'deploy', 'compose.yaml');
export const MOCK_SERVICES = ['mock-1', 'mock-2', 'mock-3'] as const;

/** A port the OS says is free now (listen 0, then closed). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export class ComposeProject {
  readonly name = `shortlink-mock-test-${randomBytes(3).toString('hex')}`;
  readonly token = randomBytes(12).toString('hex');
  /** Service → host port, once up() chose them. */
  readonly ports = new Map<string, number>();

  constructor(private readonly mockImage: string) {}

  private compose(args: string[], limitMs: number = TIMEOUTS.quick): Promise<CommandResult> {
    const env = {
      ...podmanEnv(),
      MOCK_ADMIN_TOKEN: this.token,
      SHORTLINK_MOCK_IMAGE: this.mockImage,
      ...Object.fromEntries(MOCK_SERVICES.map((service, i) => [`SHORTLINK_MOCK_PORT_${i + 1}`, String(this.ports.get(service) ?? 0)])),
      SHORTLINK_MOCK_PORT: String(this.ports.get('lb') ?? 0),
    };
    return runCommand('podman-compose', ['-p', this.name, '-f', COMPOSE_FILE, ...args], PACKAGE_ROOT, limitMs, env);
  }

  async up(): Promise<void> {
    for (const service of [...MOCK_SERVICES, 'lb']) this.ports.set(service, await freePort());
    const result = await this.compose(['up', '-d'], 3 * TIMEOUTS.quick);
    if (result.code !== 0) throw new Error(`podman-compose up failed:\n${result.transcript}`);
  }

  url(service: string): string {
    return `http://127.0.0.1:${this.ports.get(service)}`;
  }

  /** The container podman-compose made for a service. */
  async container(service: string): Promise<string> {
    const names = await podmanOk(['ps', '-a', '--filter', `label=io.podman.compose.project=${this.name}`, '--filter', `label=com.docker.compose.service=${service}`, '--format', '{{.Names}}']);
    const name = names.trim().split('\n')[0];
    if (!name) throw new Error(`no container of service ${service} in project ${this.name}`);
    return name;
  }

  async down(): Promise<void> {
    const ids = (await podman(['ps', '-a', '-q', '--filter', `label=io.podman.compose.project=${this.name}`])).stdout.trim().split('\n').filter(Boolean);
    if (ids.length > 0) await podman(['rm', '--force', '--volumes', '--time', '0', ...ids], 2 * TIMEOUTS.quick);
    await this.compose(['down', '-v'], 2 * TIMEOUTS.quick);
    await podman(['network', 'rm', '--force', `${this.name}_default`]);
  }
}
