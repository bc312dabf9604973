// `shortlink-mock robustness` as the built CLI runs it: wired as a subcommand, its exit codes, and
// its progress line per run on a terminal only (a pseudo-terminal from util-linux `script`).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runBash, runCli } from '../helpers/cli-process.js';
import { eventually } from '../helpers/eventually.js';

const TOLERANT = join(import.meta.dirname, '..', 'robustness', 'clients', 'tolerant.cjs');
const dir = mkdtempSync(join(tmpdir(), 'robustness-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('shortlink-mock robustness (the CLI)', { timeout: 60_000 }, () => {
  it('runs the command per seed against a mock of its own; no progress lines when stdout is not a terminal', async () => {
    const result = await runCli(['robustness', '--runs', '3', '--seed', '5', '--', process.execPath, TOLERANT], dir);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    // The header, once: before the runs, with the mock and how to replay them.
    expect(result.stdout.match(/^shortlink-mock robustness: .*$/gm)).toEqual([expect.stringMatching(/^shortlink-mock robustness: 3 runs under seed 5 against http:\/\/\S+ \(replay them with --seed 5\)$/)]);
    expect(result.stdout).toContain('every run passed');
    expect(result.stdout).not.toContain('run 1/3');
  });

  it('prints a progress line per run on a terminal', async () => {
    const command = [process.execPath, CLI, 'robustness', '--runs', '3', '--seed', '5', '--', process.execPath, TOLERANT].map((word) => `'${word}'`).join(' ');
    const result = await runBash(`script -qec ${JSON.stringify(command)} /dev/null`, dir);
    expect(result.code).toBe(0);
    for (const run of [1, 2, 3]) expect(result.stdout).toMatch(new RegExp(`run ${run}/3 seed \\d+: passed in`));
  });

  it("stops the client's run, and what it started, when the runner is stopped (Ctrl-C)", async () => {
    const pidFile = join(dir, 'client.pid');
    const hang = `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    const runner = spawn(process.execPath, [CLI, 'robustness', '--runs', '1', '--', process.execPath, '-e', hang], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => runner.on('exit', (code) => resolve(code)));
    // The PID once written: the file exists from its open, before its write, and Number('') is 0,
    // a PID that kill(0, 0) finds alive (this test's own process group).
    const writtenPid = async (): Promise<number> => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0);
    const client = await eventually(writtenPid, (pid) => pid > 0, 15_000);
    expect(client).toBeGreaterThan(0);
    runner.kill('SIGINT');
    expect(await exited).toBe(130);
    const alive = (): boolean => {
      try {
        return process.kill(client, 0);
      } catch {
        return false;
      }
    };
    // Gone by the time the runner has exited, not left a zombie for the system's init to reap: the
    // runner waits for what it stopped (src/robustness/client-run.ts).
    expect(alive()).toBe(false);
  });

  it('is listed in --help, and refuses a missing command with exit 2', async () => {
    expect((await runCli(['--help'], dir)).stdout).toMatch(/^ {2}robustness /m);
    const result = await runCli(['robustness', '--runs', '3'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("give the client's test command after --");
  });
});
