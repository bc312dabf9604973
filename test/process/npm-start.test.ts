// `npm start` passes a stop on (issue 25, item 7): npm forwards SIGTERM to the shell that runs the
// script, and a shell that only waits for node dies of it and leaves the mock running, an orphan
// on its port. The script `exec`s node, so the signal reaches the mock itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { eventually } from '../helpers/eventually.js';
import { descendants, isRunning } from '../helpers/process-tree.js';
import { cleanEnv } from '../package/run-command.js';

const START_LIMIT_MS = 60_000; // prestart's `tsc -b` finds the build up to date, but on a busy machine
const STOP_LIMIT_MS = 15_000;

let dir: string | undefined;
let npm: ChildProcess | undefined;
let started: number[] = [];

afterEach(() => {
  // Whatever of ours outlived the test (the orphan, before the fix) is stopped by its PID.
  for (const pid of [...started, npm?.pid ?? 0]) if (pid && isRunning(pid)) process.kill(pid, 'SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
  [dir, npm, started] = [undefined, undefined, []];
});

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

const answers = (url: string): Promise<boolean> =>
  fetch(`${url}/__admin/health`, { signal: AbortSignal.timeout(2_000) }).then(
    () => true,
    () => false,
  );

describe('npm start', () => {
  it.skipIf(process.platform !== 'linux')('stops the mock on SIGTERM: no process of it is left and its port refuses', async () => {
    dir = mkdtempSync(join(tmpdir(), 'slm-npm-start-'));
    const readyFile = join(dir, 'url');
    npm = spawn('npm', ['start', '--', '--port', '0', '--db', ':memory:', '--quiet', '--ready-file', readyFile], { cwd: PACKAGE_ROOT, env: cleanEnv(), stdio: 'ignore' });
    const url = await eventually(async () => readIfThere(readyFile), (text) => text !== '', START_LIMIT_MS);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    started = descendants(npm.pid!);
    expect(started.length).toBeGreaterThan(0);

    process.kill(npm.pid!, 'SIGTERM');
    const left = await eventually(async () => started.filter(isRunning), (pids) => pids.length === 0, STOP_LIMIT_MS);
    expect(left, 'processes of npm start still running after SIGTERM').toEqual([]);
    expect(await answers(url)).toBe(false);
  }, START_LIMIT_MS + STOP_LIMIT_MS + 10_000);
});
