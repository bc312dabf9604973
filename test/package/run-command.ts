// Runs a command to its end for the package tests (npm pack, npm install, npx, tsc, node), with a
// bound: a command still running after it is killed, and the result says so. The children get
// neither the npm_* variables of an enclosing `npm test` (npm would read them as its own config)
// nor our MOCK_* ones (a developer's MOCK_DB must not reach the installed mock).
import { spawn } from 'node:child_process';
import { delimiter, sep } from 'node:path';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The command line and its output, for an assertion's message. */
  transcript: string;
}

export function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|MOCK_)/i.test(name)));
  // Nor the node_modules/.bin folders npm and npx put first on PATH: a consumer does not have our
  // dev tools there (with them, a `postinstall: patch-package` of ours once ran "fine" here).
  env['PATH'] = (env['PATH'] ?? '').split(delimiter).filter((dir) => !dir.includes(`node_modules${sep}.bin`)).join(delimiter);
  return env;
}

/** `env` adds variables to the clean environment (npm config as `npm_config_*`, `CI`). */
export function runCommand(command: string, args: string[], cwd: string, limitMs: number, env: NodeJS.ProcessEnv = {}): Promise<CommandResult> {
  const child = spawn(command, args, { cwd, env: { ...cleanEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let killed = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, limitMs);
  return new Promise((resolve) => {
    const finish = (code: number | null): void => {
      clearTimeout(timer);
      const limit = killed ? `\n(killed after ${limitMs} ms)` : '';
      const transcript = `$ ${command} ${args.join(' ')} (in ${cwd}) → ${String(code)}${limit}\n${stdout}\n${stderr}`;
      resolve({ code, stdout, stderr, transcript });
    };
    child.once('error', (error) => {
      stderr += String(error);
      finish(null);
    });
    child.once('close', finish);
  });
}
