// Starts the CLI of an installed copy of the package, through the link npm made for its "bin"
// (node_modules/.bin/shortlink-mock), on a port the OS picks. Waits, event-driven and bounded,
// for the URL it announces, and stops it by its own PID.
import { spawn } from 'node:child_process';
import { cleanEnv } from './run-command.js';

export interface InstalledCli {
  url: string;
  /** Sends SIGTERM to this process alone and resolves with its exit code. */
  stop(): Promise<number | null>;
}

const LISTENING = /listening on (http:\/\/\S+)/;

export function startInstalledCli(bin: string, cwd: string, limitMs: number): Promise<InstalledCli> {
  const child = spawn(process.execPath, [bin, '--port', '0'], { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the installed CLI did not announce its URL within ${limitMs} ms:\n${output}`));
    }, limitMs);
    const stop = (): Promise<number | null> => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGTERM');
      return exited;
    };
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = LISTENING.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, stop });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the installed CLI exited with ${String(code)} before listening:\n${output}`));
    });
  });
}
