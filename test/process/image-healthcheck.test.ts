// The image's HEALTHCHECK follows the flags (issue 42): `run IMAGE --port 5000`, `--admin-token T`
// or `--host ::1` serve, and the check must say healthy, though the image's environment still says
// MOCK_PORT=4010, MOCK_HOST=0.0.0.0 and no token. The Dockerfile's own HEALTHCHECK command runs
// beside the built CLI in a network namespace of their own (`unshare --net`, as root: the CI's and
// the developers' machines), so, as in a container, the mock is the only listener, and a fixed port
// such as 5000 is free. The image's ENV lines are the environment of both, as an engine makes it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { CLI } from '../helpers/cli-process.js';

const CHILD = join(PACKAGE_ROOT, 'test', 'helpers', 'image-healthcheck-child.mjs');
const RUN_LIMIT_MS = 30_000;
const dockerfile = readFileSync(join(PACKAGE_ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');

/** The HEALTHCHECK's command (exec form). */
const healthcheck = JSON.parse(/^HEALTHCHECK .*?CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? 'null') as string[];
/** Every `ENV A=1 B=2` of the final stage. */
const imageEnv = Object.fromEntries(
  dockerfile
    .slice(dockerfile.lastIndexOf('\nFROM '))
    .split('\n')
    .filter((line) => line.startsWith('ENV '))
    .flatMap((line) => line.slice(4).trim().split(/\s+/))
    .map((pair) => pair.split('=') as [string, string]),
);

function runInOwnNetwork(args: string[], env: Record<string, string> = {}, stopFirst = false): { status: number | null; stderr?: string } {
  // Not the image's /data: the flags put the data in memory.
  const spec = { cli: CLI, args: [...args, '--db', ':memory:', '--quiet'], env: { PATH: process.env['PATH'] ?? '', ...imageEnv, ...env }, healthcheck, cwd: PACKAGE_ROOT, stopFirst };
  const run = spawnSync('unshare', ['--net', process.execPath, CHILD, JSON.stringify(spec)], { encoding: 'utf8', timeout: RUN_LIMIT_MS });
  if (run.status !== 0) throw new Error(`unshare --net (root only) and the mock in it: exit ${run.status}: ${run.stderr}${run.error?.message ?? ''}`);
  return JSON.parse(run.stdout) as { status: number | null; stderr?: string };
}

describe("the image's HEALTHCHECK follows the flags", () => {
  it('reads the image as the tests expect: a HEALTHCHECK command, MOCK_PORT 4010 and MOCK_HOST 0.0.0.0', () => {
    expect(healthcheck?.length).toBeGreaterThan(0);
    expect(imageEnv).toMatchObject({ MOCK_PORT: '4010', MOCK_HOST: '0.0.0.0' });
  });

  it.each([
    ['run IMAGE --port 5000 (token from -e)', ['--port', '5000'], { MOCK_ADMIN_TOKEN: 'a-token' }],
    ['run IMAGE --admin-token T (no MOCK_ADMIN_TOKEN)', ['--admin-token', 'a-token'], {}],
    ['run IMAGE --host ::1 (loopback, no token)', ['--host', '::1'], {}],
    ['run IMAGE --host 127.0.0.1 --port 0', ['--host', '127.0.0.1', '--port', '0'], {}],
    ['run -e MOCK_PORT=5001 -e MOCK_ADMIN_TOKEN=T IMAGE (the env twins, as before)', [], { MOCK_PORT: '5001', MOCK_ADMIN_TOKEN: 'a-token' }],
  ])('%s: healthy while it serves', (_what, args, env) => {
    expect(runInOwnNetwork(args, env)).toMatchObject({ status: 0 });
  });

  it('unhealthy when nothing serves', () => {
    expect(runInOwnNetwork(['--port', '5000', '--admin-token', 'a-token'], {}, true)).toMatchObject({ status: 1 });
  });
});
