// Runs a process to its end, bounded: killed after a time limit, its output collected. For the
// tests that run the suite the way CI does, as its own process.
import { spawn } from 'node:child_process';
import { loopbackEnv } from '../helpers/loopback-env.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Environment variables of this process except those whose names start with one of the prefixes,
 * and the extra CA bundle's (the runs here reach only loopback: test/helpers/loopback-env.ts).
 */
export function envWithout(prefixes: readonly string[]): Record<string, string | undefined> {
  return loopbackEnv(Object.fromEntries(Object.entries(process.env).filter(([name]) => !prefixes.some((prefix) => name.startsWith(prefix)))));
}

export function runToEnd(args: string[], options: { env: Record<string, string | undefined>; limitMs: number; cwd?: string }): Promise<Run> {
  const child = spawn(process.execPath, args, { env: options.env, ...(options.cwd ? { cwd: options.cwd } : {}) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.limitMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}
