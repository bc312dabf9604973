// What the container guide (docs/container.md) and the Dockerfile's own comments tell a user who
// builds and runs the image with Podman (issue 37, C7): these run in `npm test`, where the container
// tests (`npm run test:container`, which build with these flags: test/container/podman.ts) do not.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markdownFiles, readMarkdown, REPOSITORY_ROOT } from '../helpers/guides.js';

const DOCKERFILE = readFileSync(`${REPOSITORY_ROOT}Dockerfile`, 'utf8');
const GUIDE = readMarkdown('docs/container.md');

describe('building with Podman', () => {
  it('every podman build in the Dockerfile and the guides keeps the HEALTHCHECK (--format docker: the OCI format drops it)', () => {
    const texts: Array<[string, string]> = [['Dockerfile', DOCKERFILE], ...markdownFiles().map((path): [string, string] => [path, readMarkdown(path)])];
    const builds = texts.flatMap(([path, text]) => [...text.matchAll(/podman build[^`\n]*/g)].map(([command]) => `${path}: ${command}`));
    expect(builds.length).toBeGreaterThanOrEqual(2);
    expect(builds.filter((command) => !command.includes('--format docker'))).toEqual([]);
  });
});

describe('running with Podman', () => {
  it("with --network host, the guide gives the port and says the health check asks only the container's own sockets", () => {
    expect(DOCKERFILE).toMatch(/^HEALTHCHECK [\s\S]*healthcheck-main\.js/m);
    const hostNetwork = GUIDE.slice(GUIDE.indexOf('--network host'), GUIDE.indexOf('\n- **', GUIDE.indexOf('--network host')));
    expect(hostNetwork).toMatch(/`podman run [^`]*--network host -e MOCK_PORT=\d+ [^`]*`/);
    expect(hostNetwork.replace(/\s+/g, ' ')).toContain("on the sockets the container's own processes listen on");
  });

  it('without systemd, the guide says Podman runs no health check by itself, and how to run one', () => {
    expect(GUIDE).toMatch(/without systemd/i);
    expect(GUIDE).toMatch(/`podman healthcheck run [a-z-]+`/);
  });
});
