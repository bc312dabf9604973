// stopRunningClients on a runner whose event loop was held past its wait (a loaded machine): the
// runs it stopped are reaped before it returns, not left as zombies for the system's init.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runClient, stopRunningClients } from '../../src/robustness/client-run.js';
import { eventually } from '../helpers/eventually.js';

const WAIT_MS = 50;
const dir = mkdtempSync(join(tmpdir(), 'robustness-stop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Holds the event loop, as a starved or busy runner's would be, without yielding to it. */
function holdLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

/** A zombie still answers kill(pid, 0); a reaped process does not. */
function present(pid: number): boolean {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
}

describe('stopRunningClients', { timeout: 20_000 }, () => {
  it('reaps the runs it stopped even when the loop was held past its wait', async () => {
    const pidFile = join(dir, 'client.pid');
    const hang = `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    void runClient({ argv: [process.execPath, '-e', hang], env: process.env, timeoutMs: 60_000 }, 'http://127.0.0.1:9');
    expect(await eventually(async () => existsSync(pidFile), Boolean, 15_000)).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // From a setImmediate, so that the loop's next turn starts with its timers: the SIGKILL goes out
    // at once, the child is dead well within the hold, and its end waits in the loop beside the
    // expired wait, as on a runner descheduled for longer than STOP_WAIT_MS.
    const stopped = await new Promise<Promise<void>>((resolve) =>
      setImmediate(() => {
        const stopping = stopRunningClients(WAIT_MS);
        holdLoop(WAIT_MS * 10);
        resolve(stopping);
      }),
    );
    await stopped;
    expect(present(pid)).toBe(false);
  });
});
