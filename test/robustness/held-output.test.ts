// A client command that leaves a process of another session (`setsid`) holding its output: the
// run still ends when the command exits or its time is up, not when that process lets go of the
// pipes. The escaped `sleep 300` is out of the run's process group, so the runner cannot stop it:
// each test writes its PID to a file and kills it itself.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRobustnessCommand } from '../../src/commands/robustness.js';
import { runClient } from '../../src/robustness/client-run.js';

const LEFT = 'left a process outside its group holding its output; stopped reading it';

const dir = mkdtempSync(join(tmpdir(), 'robustness-held-'));
const pidFiles: string[] = [];
afterAll(() => {
  for (const file of pidFiles) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // The command never started its escapee.
    }
    for (const pid of text.split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A shell line that starts `sleep 300` in a session of its own (its PID appended to a file), then
 * `rest`. The escapee writes its PID through a FIFO once it has left the group, and the shell waits
 * for that: had the shell ended first, the stop of its group could take the escapee too.
 */
function escaping(name: string, rest: string): string[] {
  const file = join(dir, `${name}.pids`);
  pidFiles.push(file);
  const fifo = join(dir, `${name}.fifo`);
  return ['sh', '-c', `rm -f '${fifo}'; mkfifo '${fifo}'; setsid sh -c 'echo $$ > "$1"; exec sleep 300' sh '${fifo}' & read pid < '${fifo}'; echo $pid >> '${file}'; ${rest}`];
}

const env = { PATH: process.env['PATH'] };

// Each case would take 300 s (the escapee's sleep) before the fix; 20 s is far more than it needs.
describe('a command that leaves a process holding its output', { timeout: 20_000 }, () => {
  it('ends the run when the command exits, and says the output was left held', async () => {
    const run = await runClient({ argv: escaping('exits', 'echo done; exit 0'), env, timeoutMs: 60_000 }, 'http://127.0.0.1:1');
    expect(run).toMatchObject({ exitCode: 0, failed: false, reason: `exit 0; ${LEFT}` });
    expect(run.output).toContain('done');
  });

  it('ends the run at its --timeout, whoever holds the pipes, and stops its own group', async () => {
    const run = await runClient({ argv: escaping('hangs', 'sleep 300'), env, timeoutMs: 1_000 }, 'http://127.0.0.1:1');
    expect(run).toMatchObject({ exitCode: null, failed: true, reason: `timed out after 1 s; ${LEFT}` });
  });

  it('robustness --timeout 5 with `setsid sleep … & exit 0` neither waits for the sleep nor blames variety off', async () => {
    const out: string[] = [];
    const code = await runRobustnessCommand(['--runs', '1', '--seed', '3', '--timeout', '5', '--', ...escaping('cli', 'exit 0')], env, { out: (text) => out.push(text), err: (text) => out.push(text) });
    const text = out.join('\n');
    expect(text).not.toContain('fails with variety off');
    expect(text).toContain(LEFT);
    // The command sends no request: nothing was tested (exit 2, see the reports' tests).
    expect(code).toBe(2);
  });
});
