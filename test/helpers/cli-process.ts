// Runs the built CLI (dist/src/cli.js) as a real process: waits, event-driven and bounded, for its
// "listening on" line, and stops it by its own PID. The CLI never inherits the test's own MOCK_*
// variables (a developer's MOCK_DB or MOCK_SCENARIO must not change a test); a test passes its own.
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { loopbackEnv } from './loopback-env.js';

export const CLI = join(PACKAGE_ROOT, 'dist', 'src', 'cli.js');
const START_LIMIT_MS = 15_000;
const SCRIPT_LIMIT_MS = 40_000;

export interface CliProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves when the output matches, event-driven; rejects after a bound. */
  waitForOutput: (pattern: RegExp) => Promise<void>;
  /** Sends the signal and resolves with the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

function requireBuild(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
}

type Env = Record<string, string>;

export function startCli(args: string[], cwd: string, env: Env = {}): Promise<CliProcess> {
  requireBuild();
  const child = spawn(process.execPath, [CLI, '--port', '0', ...args], { cwd, env: { ...withoutMockVariables(process.env), ...env } });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForOutput = (pattern: RegExp): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!pattern.test(output)) return;
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolve();
      };
      const timer = setTimeout(() => {
        child.stdout?.off('data', check);
        reject(new Error(`output never matched ${String(pattern)}:\n${output}`));
      }, START_LIMIT_MS);
      child.stdout?.on('data', check);
      check();
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not start within ${START_LIMIT_MS} ms:\n${output}`));
    }, START_LIMIT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        child,
        output: () => output,
        waitForOutput,
        stop: (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${String(code)} before listening:\n${output}`));
    });
  });
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion (for --help and start-up failures). */
export function runCli(args: string[], cwd: string, env: Env = {}): Promise<Finished> {
  requireBuild();
  return runToEnd(spawn(process.execPath, [CLI, ...args], { cwd, env: { ...withoutMockVariables(process.env), ...env } }));
}

/**
 * Runs a bash script, as a user would paste it, until bash exits (for the README's shell patterns).
 * Its output goes to files, not pipes: a process the script leaves behind keeps its output open,
 * and must not keep the test waiting. A script still running after the bound is killed (code null).
 */
export function runBash(script: string, cwd: string): Promise<Finished> {
  requireBuild();
  const [out, err] = [join(cwd, 'bash.stdout'), join(cwd, 'bash.stderr')];
  const [outFd, errFd] = [openSync(out, 'w'), openSync(err, 'w')];
  const child = spawn('bash', ['-c', script], { cwd, env: withoutMockVariables(process.env), stdio: ['ignore', outFd, errFd] });
  closeSync(outFd);
  closeSync(errFd);
  const timer = setTimeout(() => child.kill('SIGKILL'), SCRIPT_LIMIT_MS);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') });
    }),
  );
}

/** Collects the output; a child still running after the bound is killed (its code is then null). */
function runToEnd(child: ChildProcessWithoutNullStreams): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), START_LIMIT_MS);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Also without the extra CA bundle's variable: the CLI here reaches only loopback (loopback-env.ts). */
function withoutMockVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return loopbackEnv(Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('MOCK_'))));
}
