// What a container test makes, made under names of its own and removed by those names in afterAll:
// never a container, volume or image the test did not make (a developer's own, another run's).
import { randomBytes } from 'node:crypto';
import { podman, podmanOk } from './podman.js';

export class ContainerScope {
  readonly containers: string[] = [];
  readonly volumes: string[] = [];
  readonly images: string[] = [];
  readonly networks: string[] = [];
  private readonly prefix = `shortlink-mock-test-${randomBytes(3).toString('hex')}`;

  /** A fresh name for a container (`kind` says what it is for, in `podman ps`). */
  container(kind: string): string {
    const name = `${this.prefix}-${kind}`;
    this.containers.push(name);
    return name;
  }

  volume(kind: string): string {
    const name = `${this.prefix}-${kind}`;
    this.volumes.push(name);
    return name;
  }

  network(kind: string): string {
    const name = `${this.prefix}-${kind}`;
    this.networks.push(name);
    return name;
  }

  image(kind: string): string {
    const name = `localhost/${this.prefix}-${kind}:test`;
    this.images.push(name);
    return name;
  }

  /** Removes what this scope named, containers first (they hold the volumes, networks and images); a missing one is no error. */
  async removeAll(): Promise<void> {
    // --volumes: the anonymous volume the image's VOLUME /data gave a container without -v goes too.
    for (const name of this.containers) await podman(['rm', '--force', '--ignore', '--volumes', '--time', '0', name]);
    for (const name of this.volumes) await podman(['volume', 'rm', '--force', name]);
    for (const name of this.networks) await podman(['network', 'rm', '--force', name]);
    for (const name of this.images) await podman(['rmi', '--force', '--ignore', name]);
  }
}

/** The host address a container's port is published on: `127.0.0.1:41234` (podman port). */
export async function publishedAddress(container: string, port: number): Promise<string> {
  const line = (await podmanOk(['port', container, `${port}/tcp`])).trim().split('\n')[0] ?? '';
  return line.replace(/^0\.0\.0\.0:/, '127.0.0.1:');
}

/** The container's state from `podman inspect`: running, its exit code, its health. */
export async function containerState(container: string): Promise<{ running: boolean; exitCode: number; health?: string }> {
  const [info] = JSON.parse(await podmanOk(['container', 'inspect', container])) as { State: { Running: boolean; ExitCode: number; Health?: { Status: string }; Healthcheck?: { Status: string } } }[];
  if (!info) throw new Error(`no container ${container}`);
  const health = info.State.Health?.Status ?? info.State.Healthcheck?.Status;
  return { running: info.State.Running, exitCode: info.State.ExitCode, ...(health ? { health } : {}) };
}
