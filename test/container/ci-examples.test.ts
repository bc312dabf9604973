// The container guide's "In CI as a service container" (docs/container.md): the push commands name the image both CI examples
// use, and each example's service, started the way its CI starts it (the example's variables, its
// port or its alias), answers its job with the example's admin token. GitHub Actions publishes the
// port on the runner; GitLab puts the job and the service on one network, the service under its alias.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OPTIONS } from '../../src/process/config.js';
import { eventually } from '../helpers/eventually.js';
import { readMarkdown } from '../helpers/guides.js';
import { ensureBaseImage } from './base-image.js';
import { ContainerScope, publishedAddress } from './containers.js';
import { ensureMockImage } from './mock-image.js';
import { podman, podmanOk, TIMEOUTS, type CommandResult } from './podman.js';
import { runCommand } from '../package/run-command.js';

const guide = readMarkdown('docs/container.md');
const section = guide.slice(guide.indexOf('## In CI as a service container'));
const [push = '', github = '', gitlab = ''] = [...section.matchAll(/```(?:sh|yaml)\n([\s\S]*?)```/g)].map(([, block]) => block ?? '');
const pushedTag = /^docker push (\S+)$/m.exec(push)?.[1] ?? '';
const ENV_TWINS = new Set(OPTIONS.flatMap((option) => (option.env ? [option.env] : [])));

interface GithubJob {
  services: Record<string, { image: string; env: Record<string, string>; ports: string[] }>;
  env: Record<string, string>;
}
interface GitlabJob {
  services: { name: string; alias: string }[];
  variables: Record<string, string>;
}
const githubJob = (parse(github) as { jobs: { test: GithubJob } }).jobs.test;
const gitlabJob = (parse(gitlab) as { test: GitlabJob }).test;

const scope = new ContainerScope();
let image: string;
let base: string;

beforeAll(async () => {
  [image, base] = await Promise.all([ensureMockImage(), ensureBaseImage()]);
}, TIMEOUTS.build);

afterAll(() => scope.removeAll(), 120_000);

/** `-e NAME=value` for each MOCK_* variable a CI hands the service (an unknown MOCK_ name is refused). */
function mockEnv(variables: Record<string, string>): string[] {
  const names = Object.keys(variables).filter((name) => name.startsWith('MOCK_'));
  expect(names.filter((name) => !ENV_TWINS.has(name))).toEqual([]);
  return names.flatMap((name) => ['-e', `${name}=${variables[name]}`]);
}

/** The job: GET /__admin/health with the token, then one create; prints the two statuses ([0] when nothing answers). */
const JOB_SCRIPT = `
const base = process.env.SHORTLINK_BASE_URL, token = process.env.MOCK_ADMIN_TOKEN;
try {
  const health = await fetch(base + '/__admin/health', { headers: { 'x-admin-token': token } });
  const body = JSON.stringify({ destinationUrl: 'https://example.com/ci', domain: 'short.test', tags: [] });
  const create = await fetch(base + '/links', { method: 'POST', headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' }, body });
  console.log(JSON.stringify([health.status, create.status]));
} catch {
  console.log('[0]');
}`;
const JOB_ARGS = ['node', '--input-type=module', '-e', JOB_SCRIPT];
const statuses = (run: CommandResult): number[] => (run.code === 0 ? (JSON.parse(run.stdout) as number[]) : [run.code ?? -1]);

describe("the container guide's CI service examples", () => {
  it('push the image both examples use', () => {
    expect(push).toContain(`docker build -t ${pushedTag} .`);
    expect(githubJob.services['shortlink-mock']?.image).toBe(pushedTag);
    expect(gitlabJob.services[0]?.name).toBe(pushedTag);
  });

  it('GitHub Actions: the service on its published port answers the job with the token', async () => {
    const service = githubJob.services['shortlink-mock'];
    expect(service?.ports).toEqual(['4010:4010']);
    const container = scope.container('github-service');
    await podmanOk(['run', '-d', '--name', container, '-p', '127.0.0.1::4010', ...mockEnv(service?.env ?? {}), image]);
    const url = `http://${await publishedAddress(container, 4010)}`;
    expect(githubJob.env['SHORTLINK_BASE_URL']).toBe('http://127.0.0.1:4010');
    const [command = '', ...args] = JOB_ARGS;
    const job = async () => statuses(await runCommand(command, args, process.cwd(), TIMEOUTS.quick, { ...githubJob.env, SHORTLINK_BASE_URL: url }));
    expect(await eventually(job, (statuses) => statuses[0] === 200, 30_000)).toEqual([200, 201]);
  });

  it('GitLab CI: the service under its alias answers a job container on the same network', async () => {
    const [service] = gitlabJob.services;
    const network = scope.network('gitlab');
    await podmanOk(['network', 'create', network]);
    const container = scope.container('gitlab-service');
    await podmanOk(['run', '-d', '--name', container, '--network', network, '--network-alias', service?.alias ?? '', ...mockEnv(gitlabJob.variables), image]);
    const variables = Object.entries(gitlabJob.variables).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
    const job = async () => statuses(await podman(['run', '--rm', '--network', network, ...variables, base, ...JOB_ARGS]));
    expect(await eventually(job, (statuses) => statuses[0] === 200, 30_000)).toEqual([200, 201]);
  });
});
