// Issue 37 A7: a FIFO given as --fixtures, as a scenario file in --scenarios DIR, or as the db's
// change log hung the start silently (a FIFO's open and read wait for a writer that never comes).
// Anything that is not a regular file is refused in one line, as the db itself is, and the start
// ends with exit 2. The CLI of dist/ is killed after a bound (runCli), so a hang fails the test
// instead of hanging it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-fifo-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fifo = (path: string): string => {
  execFileSync('mkfifo', [path]);
  return path;
};

/** The CLI's refusal: exit 2, nothing on stdout, one stderr line that matches. */
async function expectRefused(args: string[], line: RegExp): Promise<void> {
  const result = await runCli(['--port', '0', ...args], dir);
  expect(result.code, `a refusal, not a hang (stderr: ${JSON.stringify(result.stderr)})`).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n'), `stderr must be one line: ${JSON.stringify(result.stderr)}`).toHaveLength(1);
  expect(result.stderr.trimEnd()).toMatch(line);
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a FIFO where a file is read at start', () => {
  it('--fixtures FIFO: refused, it is not a regular file', async () => {
    const path = fifo(join(dir, 'fixtures.json'));
    await expectRefused(['--db', ':memory:', '--fixtures', path], new RegExp(`^shortlink-mock: --fixtures: cannot load fixtures ${escape(path)}: it is not a regular file$`));
  });

  it('a FIFO among the scenario files of --scenarios DIR: refused, it is not a regular file', async () => {
    mkdirSync(join(dir, 'scenarios'));
    const path = fifo(join(dir, 'scenarios', 'stuck.yaml'));
    await expectRefused(['--db', ':memory:', '--scenarios', join(dir, 'scenarios')], new RegExp(`${escape(path)}: it is not a regular file`));
  });

  it.each([[[]], [['--reset']]])("the db's change log a FIFO, with %j: refused as the db is, not a shortlink-mock db file", async (args) => {
    const db = join(dir, 'db.json');
    fifo(`${db}.changes`);
    await expectRefused(['--db', db, ...args], new RegExp(`^shortlink-mock: --db: db ${escape(db)}: this is not a shortlink-mock db file \\(its change log ${escape(db)}\\.changes is not a regular file\\)`));
  });

  it('the db itself a FIFO: refused as before', async () => {
    const db = fifo(join(dir, 'db.json'));
    await expectRefused(['--db', db], new RegExp(`^shortlink-mock: --db: db ${escape(db)}: this is not a shortlink-mock db file \\(it is not a regular file\\)`));
  });
});
