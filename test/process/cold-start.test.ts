// What the CLI loads before it is needed (issue 25): --version and --help print and exit without
// loading the server (Express, the validator, Ajv, the stores, YAML); a start on a file store
// loads neither the Redis client nor faker (the db is kept, not seeded). Traced through the ES
// module loader (test/helpers/module-trace.mjs), on the built CLI. A db file the CLI refuses is
// refused before the server's modules load.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { CLI, startCli, type CliProcess } from '../helpers/cli-process.js';

const TRACE_HOOK = join(PACKAGE_ROOT, 'test', 'helpers', 'module-trace.mjs');
const EXIT_LIMIT_MS = 15_000;
/** Modules of the server: none may load for --version or --help. */
const SERVER = /\/node_modules\/(express|express-openapi-validator|ajv|lowdb|redis|@redis|@faker-js|yaml|js-yaml|swagger-ui-dist)\/|\/dist\/src\/process\/(startup|mock|app|banner)\.js$/;

let dir: string | undefined;
let running: CliProcess | undefined;
afterEach(async () => {
  await running?.stop('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
  [dir, running] = [undefined, undefined];
});

/** Runs the CLI to its end with the trace on, in a new directory `prepare` may fill; the modules it loaded. */
function tracedRun(args: string[], prepare: (at: string) => void = () => undefined): Promise<{ code: number | null; stdout: string; stderr: string; modules: string[] }> {
  dir = mkdtempSync(join(tmpdir(), 'slm-cold-start-'));
  prepare(dir);
  const trace = join(dir, 'modules.txt');
  const child = spawn(process.execPath, ['--import', TRACE_HOOK, CLI, ...args], { cwd: dir, env: { ...process.env, SLM_MODULE_TRACE: trace } });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_LIMIT_MS);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, modules: readFileSync(trace, 'utf8').trim().split('\n') });
    }),
  );
}

describe('modules loaded before they are needed', () => {
  it.each([['--version'], ['--help']])('%s loads none of the server', async (flag) => {
    const { code, stdout, modules } = await tracedRun([flag]);
    expect(code).toBe(0);
    expect(stdout).not.toBe('');
    expect(modules.some((url) => url.endsWith('/dist/src/cli.js'))).toBe(true); // the trace sees the CLI's own modules
    expect(modules.filter((url) => SERVER.test(url))).toEqual([]);
  });

  // A refusal used to load the whole server first: ~0.42 s of CPU per refused start, ~0.21 s now.
  it.each([[[]], [['--reset']]])('a db file it refuses, with %j: exit 2, its one line, and neither the mock, Express, the validator nor faker loaded', async (flags) => {
    const { code, stdout, stderr, modules } = await tracedRun(['--db', 'db.json', '--port', '0', ...flags], (at) => writeFileSync(join(at, 'db.json'), 'not a db\n'));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^shortlink-mock: --db: db \S+db\.json: this is not a shortlink-mock db file \(it is not JSON\)[^\n]*\n$/);
    expect(modules.some((url) => url.endsWith('/dist/src/store/file/open-data.js'))).toBe(true); // the trace sees the step that refuses
    expect(modules.filter((url) => /\/node_modules\/(express|express-openapi-validator|@faker-js|swagger-ui-dist)\/|\/dist\/src\/(process\/(mock|app)|http\/server)\.js$/.test(url))).toEqual([]);
  });

  it('a start on a kept file db loads Express and the validator, but neither the Redis client nor faker', async () => {
    dir = mkdtempSync(join(tmpdir(), 'slm-cold-start-'));
    const first = await startCli(['--db', join(dir, 'db.json'), '--quiet'], dir);
    expect(await first.stop('SIGTERM')).toBe(0); // seeded, written, stopped
    const trace = join(dir, 'modules.txt');
    running = await startCli(['--db', join(dir, 'db.json'), '--quiet'], dir, { SLM_MODULE_TRACE: trace, NODE_OPTIONS: `--import=${TRACE_HOOK}` });
    expect(running.output()).toMatch(/kept from an earlier run/);
    const modules = readFileSync(trace, 'utf8').trim().split('\n');
    expect(modules.filter((url) => /\/node_modules\/express-openapi-validator\//.test(url))).not.toEqual([]);
    expect(modules.filter((url) => /\/node_modules\/(redis|@redis|@faker-js)\//.test(url))).toEqual([]);
  });
});
