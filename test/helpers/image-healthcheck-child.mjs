// Run by test/process/image-healthcheck.test.ts as `unshare --net node THIS SPEC`: in a network
// namespace of its own (only loopback, brought up here), as in a container, it starts the built CLI
// with the spec's flags and environment, waits (event-driven, bounded) for it to listen, runs the
// Dockerfile's HEALTHCHECK command with the same environment, as the engine does, and prints
// {"status": exit code of the check}. `stopFirst`: the mock is stopped before the check.
import { execFileSync, spawn, spawnSync } from 'node:child_process';

const START_LIMIT_MS = 15_000;
const CHECK_LIMIT_MS = 10_000;
const { cli, args, env, healthcheck, cwd, stopFirst } = JSON.parse(process.argv[2] ?? '{}');
execFileSync('ip', ['link', 'set', 'lo', 'up']);
const mock = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`the mock did not listen within ${START_LIMIT_MS} ms: ${output}`)), START_LIMIT_MS);
  const read = (chunk) => {
    output += chunk;
    if (/listening on /.test(output)) {
      clearTimeout(timer);
      resolve();
    }
  };
  mock.stdout.on('data', read);
  mock.stderr.on('data', read);
  mock.once('exit', (code) => {
    clearTimeout(timer);
    reject(new Error(`the mock exited (${code}): ${output}`));
  });
}).catch((error) => {
  mock.kill('SIGKILL');
  process.stderr.write(`${error.message}\n`);
  process.exit(3);
});
mock.removeAllListeners('exit');
if (stopFirst) {
  const exited = new Promise((resolve) => mock.once('exit', resolve));
  mock.kill('SIGKILL');
  await exited;
}
const [command, ...rest] = healthcheck;
const check = spawnSync(command === 'node' ? process.execPath : command, rest, { cwd, env, timeout: CHECK_LIMIT_MS, encoding: 'utf8' });
mock.kill('SIGKILL');
process.stdout.write(JSON.stringify({ status: check.status, signal: check.signal, stderr: check.stderr }));
