// stopRunningClients on a runner whose event loop was held past its wait (a loaded machine): the
// runs it stopped are reaped before it returns, not left as zombies for the system's init. In a
// process of its own, as the runner is: stopRunningClients leaves its module refusing new runs, and
// the suite's files share their modules (vitest.config.ts: isolate false).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';

const CLIENT_RUN = pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', 'robustness', 'client-run.js')).href;
const WAIT_MS = 50;
const dir = mkdtempSync(join(tmpdir(), 'robustness-stop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Starts a run that hangs, waits for its PID file, then, from a setImmediate (so that the loop's
 * next turn starts with its timers), stops the runs and holds the loop 10 × WAIT_MS: the SIGKILL goes
 * out at once, the child is dead well within the hold, and its end waits in the loop beside the
 * expired wait, as on a runner descheduled for longer than STOP_WAIT_MS. Prints whether the child's
 * PID still answers kill(pid, 0) once stopRunningClients has resolved (a zombie does; a reaped child not).
 */
const script = (pidFile: string): string => `
import { existsSync, readFileSync } from 'node:fs';
import { runClient, stopRunningClients } from ${JSON.stringify(CLIENT_RUN)};
const hang = ${JSON.stringify(`require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`)};
void runClient({ argv: [process.execPath, '-e', hang], env: process.env, timeoutMs: 60_000 }, 'http://127.0.0.1:9');
const until = Date.now() + 15_000;
while (!existsSync(${JSON.stringify(pidFile)}) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
const pid = Number(readFileSync(${JSON.stringify(pidFile)}, 'utf8'));
const stopped = await new Promise((resolve) => setImmediate(() => {
  const stopping = stopRunningClients(${WAIT_MS});
  const hold = Date.now() + ${WAIT_MS * 10};
  while (Date.now() < hold);
  resolve(stopping);
}));
await stopped;
let present = false;
try { present = process.kill(pid, 0); } catch {}
console.log(JSON.stringify({ present }));
process.exit(0);
`;

describe('stopRunningClients', { timeout: 30_000 }, () => {
  it('reaps the runs it stopped even when the loop was held past its wait', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script(join(dir, 'client.pid'))], { timeout: 25_000 });
    expect(JSON.parse(stdout)).toEqual({ present: false });
  });
});
