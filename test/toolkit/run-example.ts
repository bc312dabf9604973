// Runs one recipe of examples/ as its reader would, to its end, with a bound (killed after it).
// The child gets none of this run's VITEST_* variables (a nested Vitest would take itself for a
// worker of this one), MOCK_* or npm_* ones, nor the extra CA bundle's (the examples reach only
// loopback: test/helpers/loopback-env.ts); and no colours, so that its output reads as text.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loopbackEnv } from '../helpers/loopback-env.js';

const run = promisify(execFile);

export interface ExampleRun {
  /** The exit code; null when killed at the bound. */
  code: number | null;
  /** The command, stdout and stderr, for an assertion's message. */
  output: string;
}

/** `env`: variables the example is given on purpose (after those of this run are left out). */
export async function runExample(args: string[], cwd: string, limitMs: number, env: Record<string, string> = {}): Promise<ExampleRun> {
  const childEnv = { ...loopbackEnv(Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|MOCK_|npm_)/i.test(name)))), NO_COLOR: '1', ...env };
  const line = `$ node ${args.join(' ')} (in ${cwd})`;
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd, env: childEnv, timeout: limitMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: `${line}\n${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: unknown; killed?: boolean; stdout?: string; stderr?: string };
    const code = failed.killed ? null : typeof failed.code === 'number' ? failed.code : null;
    return { code, output: `${line} → ${String(code)}${failed.killed ? ` (killed after ${limitMs} ms)` : ''}\n${failed.stdout ?? ''}${failed.stderr ?? String(error)}` };
  }
}
