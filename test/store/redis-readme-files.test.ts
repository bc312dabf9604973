// The README's redis-server commands, run as written in a fresh directory standing for a clone or a
// project: Redis's own files (appendonlydir/, dump.rdb) must land where the README says, a path
// .gitignore ignores, never loose in the directory. Only the port (a free one) and the socket
// path (in the test's directory) are changed; Redis is stopped with SIGTERM, which makes it
// write dump.rdb as a user's Ctrl-C or shutdown would.
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { runBash } from '../helpers/cli-process.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/redis-process.js';
import { defaultRedisBinary } from '../helpers/redis-server.js';
import { ignoredByGit } from '../helpers/git-ignored.js';

const README = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
/** Every redis-server command the README gives, from its code blocks and inline code. */
const COMMANDS = [...README.matchAll(/(?:^|`)(redis-server --[^`\n]*)/gm)].map((match) => (match[1] ?? '').replace(/\s+#.*$/, '').trim());
/** The README's own `mkdir -p` for Redis's directory, run first as a user would. */
const MKDIR = /^mkdir -p \S+(?=\s)/m.exec(README.slice(README.indexOf('Three instances on one Redis')))?.[0] ?? '';
const LIMIT_MS = 10_000;
const BASH_FILES = new Set(['bash.stdout', 'bash.stderr', 'redis.pid']);

let dir: string | undefined;
let pid: number | undefined;
afterEach(async () => {
  if (pid !== undefined && isRunning(pid)) process.kill(pid, 'SIGKILL');
  if (pid !== undefined) await eventually(async () => isRunning(pid ?? 0), (running) => !running, LIMIT_MS);
  if (dir) rmSync(dir, { recursive: true, force: true });
  [dir, pid] = [undefined, undefined];
});

describe("the README's redis-server commands", () => {
  it('are found (two: the AOF one and the Unix socket one)', () => {
    expect(COMMANDS).toHaveLength(2);
  });

  it.each(COMMANDS)('`%s` writes its files only where the README says, into an ignored path', async (command) => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'slm-readme-redis-')));
    const port = await freePort();
    const socket = join(dir, 'redis.sock');
    const line = command.replace(/^redis-server/, defaultRedisBinary()).replace('--port 6379', `--port ${port}`).replace('/tmp/redis.sock', socket).replace(/&$/, '');
    const result = await runBash(`${MKDIR}\n${line} &\necho $! > redis.pid\n`, dir);
    expect(result.code, result.stderr).toBe(0);
    pid = Number(readFileSync(join(dir, 'redis.pid'), 'utf8'));
    const ready = await eventually(async () => (line.includes('--unixsocket') ? existsSync(socket) : await accepts(port)), (up) => up, LIMIT_MS);
    expect(ready, readFileSync(join(dir, 'bash.stdout'), 'utf8')).toBe(true);
    process.kill(pid, 'SIGTERM');
    expect(await eventually(async () => isRunning(pid ?? 0), (running) => !running, LIMIT_MS)).toBe(false);
    const written = filesUnder(dir).filter((file) => !BASH_FILES.has(file) && file !== 'redis.sock');
    expect(written).toContain('.data/redis/dump.rdb');
    expect(written.filter((file) => !file.startsWith('.data/redis/'))).toEqual([]);
    expect(written.filter((file) => !ignoredByGit(file))).toEqual([]);
  });
});

function filesUnder(root: string, at = root): string[] {
  return readdirSync(at, { withFileTypes: true }).flatMap((entry) => {
    const path = join(at, entry.name);
    return entry.isDirectory() ? filesUnder(root, path) : [relative(root, path)];
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(true)).once('error', () => resolve(false));
    socket.once('close', () => socket.destroy());
    socket.once('connect', () => socket.end());
  });
}

function isRunning(processId: number): boolean {
  try {
    process.kill(processId, 0);
    return true;
  } catch {
    return false;
  }
}
