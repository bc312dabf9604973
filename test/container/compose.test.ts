// deploy/compose.yaml run for real with podman-compose (Debian's): Redis and three mock replicas on
// it are one mock, with HAProxy in front. A link made through one is changed through the others,
// 50 concurrent creates of one slug over the three give exactly one 201, and a replica killed under
// load loses nothing it acknowledged, while the address in front keeps answering. The compose file
// is the user's, as it is: only the variables it reads are set.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { runCommand } from '../package/run-command.js';
import { ComposeProject, MOCK_SERVICES } from './compose-project.js';
import { ensureMockImage } from './mock-image.js';
import { podman, podmanOk, TIMEOUTS } from './podman.js';
import { ensureStandInImages } from './stand-in-images.js';

const START_LIMIT_MS = 90_000;
const REQUEST_LIMIT_MS = 5000;
const KEY = { 'x-api-key': 'demo-key', 'content-type': 'application/json' };
let project: ComposeProject;

beforeAll(async () => {
  const image = await ensureMockImage();
  await ensureStandInImages();
  project = new ComposeProject(image);
  await project.up();
  // podman-compose starts the services in order but does not wait for Redis's health: a replica
  // that found no Redis yet exits 2 and its restart policy starts it again.
  for (const service of [...MOCK_SERVICES, 'lb']) expect(await eventually(() => health(project.url(service)), (status) => status === 200, START_LIMIT_MS)).toBe(200);
}, TIMEOUTS.build);

afterAll(() => project?.down(), 3 * TIMEOUTS.quick);

async function health(url: string): Promise<number> {
  try {
    return (await fetch(`${url}/__admin/health`, { headers: { 'x-admin-token': project.token }, signal: AbortSignal.timeout(2000) })).status;
  } catch {
    return 0;
  }
}

async function call(url: string, method: string, path: string, body?: object): Promise<{ status: number; body: { id?: string; errorDescription?: string } }> {
  const res = await fetch(`${url}${path}`, { method, headers: KEY, signal: AbortSignal.timeout(REQUEST_LIMIT_MS), ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as { id?: string }) : {} };
}

const create = (url: string, slug?: string) => call(url, 'POST', '/links', { destinationUrl: 'https://example.com/compose', domain: 'short.test', tags: [], ...(slug ? { slug } : {}) });
const update = (url: string, id: string) => call(url, 'PUT', `/links/${id}`, { destinationUrl: 'https://example.com/compose-updated', tags: [] });

describe('deploy/compose.yaml under podman-compose', () => {
  it('runs Redis with AOF on, and every health check of the file passes', async () => {
    const redis = await project.container('redis');
    expect((await podmanOk(['exec', redis, 'redis-cli', 'config', 'get', 'append*'])).split('\n').map((line) => line.trim())).toEqual(expect.arrayContaining(['appendonly', 'yes', 'appendfsync', 'everysec']));
    for (const service of ['redis', ...MOCK_SERVICES]) {
      const container = await project.container(service);
      // No systemd here to run them on a timer: run each once, as its timer would.
      const result = await podman(['healthcheck', 'run', container], TIMEOUTS.quick);
      expect(result.code, `${service}: ${result.transcript}`).toBe(0);
    }
  });

  it("the compose example of docs/kubernetes.md creates a link through one replica; the others update and delete it", async () => {
    const readme = readFileSync('docs/kubernetes.md', 'utf8');
    const curl = /## The same topology with compose[\s\S]*?```sh\n[^\n]*\n(curl [\s\S]*?)\n```/.exec(readme)?.[1];
    expect(curl).toContain('http://127.0.0.1:4011/links');
    const result = await runCommand('sh', ['-c', (curl ?? '').replace('127.0.0.1:4011', `127.0.0.1:${project.ports.get('mock-1')}`)], process.cwd(), REQUEST_LIMIT_MS * 2);
    const made = JSON.parse(result.stdout) as { id: string; slug: string };
    expect(made.slug, result.transcript).toBe('from-4011');
    expect((await update(project.url('mock-2'), made.id)).status).toBe(200);
    expect((await call(project.url('mock-3'), 'DELETE', `/links/${made.id}`)).status).toBe(204);
    expect((await update(project.url('mock-1'), made.id)).status).toBe(404);
  });

  it('HAProxy in front is one address for the three', async () => {
    const made = await create(project.url('lb'));
    expect(made.status).toBe(201);
    expect((await update(project.url('mock-3'), made.body.id as string)).status).toBe(200);
    expect((await update(project.url('lb'), made.body.id as string)).status).toBe(200);
  });

  it('50 concurrent creates of one slug, spread over the three replicas, give exactly one 201', async () => {
    const slug = `race-${Date.now().toString(36)}`;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => create(project.url(MOCK_SERVICES[i % 3] as string), slug)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    // The rest are the contract's answer to a taken slug (SPEC: 400 with an Error object).
    expect(answers.filter((answer) => answer.status !== 201).every((answer) => answer.status === 400 && /already taken/.test(answer.body.errorDescription ?? ''))).toBe(true);
  });

  it('a replica killed under load loses nothing it acknowledged: every 201 is updated through the others', async () => {
    const acknowledged: string[] = [];
    const victim = await project.container('mock-2');
    let killed = false;
    const end = Date.now() + 30_000;
    let failedInFront = 0;
    let answeredInFrontAfterKill = 0;
    // Three client loops over the three replicas and one through HAProxy; mock-2 is killed
    // (SIGKILL) once 30 links are in.
    const loop = async (offset: number): Promise<void> => {
      for (let i = offset; Date.now() < end && acknowledged.length < 150; i += 1) {
        const url = offset === 3 ? project.url('lb') : project.url(MOCK_SERVICES[i % 3] as string);
        const answer = await create(url).catch(() => undefined);
        if (answer?.status === 201 && answer.body.id) acknowledged.push(answer.body.id);
        else if (offset === 3) failedInFront += 1;
        if (offset === 3 && killed && answer?.status === 201) answeredInFrontAfterKill += 1;
        if (!killed && acknowledged.length >= 30) {
          killed = true;
          await podmanOk(['kill', victim]);
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(loop));
    expect(killed).toBe(true);
    // In front, only a request in flight to mock-2 as it died may fail: HAProxy sends the next ones
    // to the others (a refused connection is tried again elsewhere; then the health check drops it).
    expect(failedInFront).toBeLessThanOrEqual(1);
    expect(answeredInFrontAfterKill).toBeGreaterThanOrEqual(5);
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);
    const survivors = [project.url('mock-1'), project.url('mock-3')];
    const statuses = await Promise.all(acknowledged.map((id, i) => update(survivors[i % 2] as string, id).then((answer) => answer.status)));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
