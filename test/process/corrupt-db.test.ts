// A corrupted or truncated db at start, on a real db written by the real CLI: the CLI exits 2 with
// one stderr line naming the file and the way out (--reset), leaves every file byte-identical (no
// silent re-seed), and starts with --reset. A torn last log line (a crash mid-append) is not
// corruption: it is cut off and the rest loads. A file that is not a shortlink-mock db at all
// (another tool's file, garbage bytes, a directory) is refused with or without --reset, and nothing
// beside it is written. Each case takes well under a second, so this reliability test of the issue
// lives in npm test.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.js';

const CREATED = 6;
let template: string;
let dir: string;
let running: CliProcess | undefined;
/** Ids of the links created through the API in the template db, in order. */
let createdIds: string[] = [];

beforeAll(async () => {
  template = mkdtempSync(join(tmpdir(), 'slm-corrupt-template-'));
  const cli = await startCli(['--db', 'db.json', '--quiet'], template);
  try {
    for (let n = 0; n < CREATED; n += 1) {
      const res = await fetch(`${cli.url}/links`, {
        method: 'POST',
        headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
        body: JSON.stringify({ destinationUrl: `https://example.com/${n}`, domain: 'short.test', tags: [{ name: `t${n}` }], slug: `kept-${n}` }),
      });
      expect(res.status).toBe(201);
      createdIds.push(((await res.json()) as { id: string }).id);
    }
  } finally {
    // Killed, not stopped: a clean stop folds the change log into db.json, and the log is what
    // most cases below corrupt. Every create was acknowledged, so it is on disk.
    await cli.stop('SIGKILL');
  }
  // A real db: the seeded db file, and a change log with a tag and a link line per create.
  expect(readdirSync(template).sort()).toEqual(['db.json', 'db.json.changes']);
});
afterAll(() => rmSync(template, { recursive: true, force: true }));
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function copyOfTemplate(): string {
  dir = mkdtempSync(join(tmpdir(), 'slm-corrupt-'));
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** Every entry of `at`: a file's bytes, or '<dir>'. */
const filesOf = (at: string): Record<string, Buffer | string> =>
  Object.fromEntries(readdirSync(at).sort().map((name) => [name, statSync(join(at, name)).isDirectory() ? '<dir>' : readFileSync(join(at, name))]));
const logLines = (at: string): string[] => readFileSync(join(at, 'db.json.changes'), 'utf8').split('\n');
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Garbage as a file could hold it: a zip header, a newline, a NUL, invalid UTF-8, then seeded noise. */
function garbage(length: number): Buffer {
  let state = 7;
  const noise = Buffer.alloc(length, 0).map(() => (state = (state * 1103515245 + 12345) % 2 ** 31) % 256);
  return Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x0a, 0x00, 0xff, 0xfe]), noise]);
}

const corruptions: [string, (at: string) => void, string][] = [
  ['db.json truncated mid-way', (at) => truncateSync(join(at, 'db.json'), Math.floor(readFileSync(join(at, 'db.json')).length / 2)), 'db.json'],
  ['db.json overwritten with garbage bytes that begin as it did', (at) => writeFileSync(join(at, 'db.json'), Buffer.concat([readFileSync(join(at, 'db.json')).subarray(0, 40), garbage(4096)])), 'db.json'],
  ['db.json empty (0 bytes)', (at) => writeFileSync(join(at, 'db.json'), ''), 'db.json'],
  [
    'a torn line in the middle of db.json.changes',
    (at) => {
      const lines = logLines(at);
      lines[3] = (lines[3] ?? '').slice(0, 40);
      writeFileSync(join(at, 'db.json.changes'), lines.join('\n'));
    },
    'db.json.changes',
  ],
  [
    'garbage bytes in the middle of db.json.changes',
    (at) => {
      const lines = logLines(at);
      lines.splice(5, 0, 'x\u0000\u00ff{{{');
      writeFileSync(join(at, 'db.json.changes'), lines.join('\n'));
    },
    'db.json.changes',
  ],
  [
    'db.json.changes without its db.json',
    (at) => rmSync(join(at, 'db.json')),
    'db.json.changes',
  ],
  [
    'a link naming a tag the db does not hold (its put-tag line gone)',
    (at) => {
      const lines = logLines(at);
      lines.splice(lines.findIndex((line) => line.includes('"op":"put-tag"')), 1);
      writeFileSync(join(at, 'db.json.changes'), lines.join('\n'));
    },
    'db.json',
  ],
  [
    'a link of an account db.json does not hold',
    (at) => {
      const lines = logLines(at);
      const index = lines.findIndex((line) => line.includes('"op":"put-link"'));
      lines[index] = (lines[index] as string).replace(/"accountId":"acc_\w+"/, '"accountId":"acc_0000000000000000"');
      writeFileSync(join(at, 'db.json.changes'), lines.join('\n'));
    },
    'db.json',
  ],
];

describe('a corrupted or truncated db at start', () => {
  it.each(corruptions)('%s: exit 2, one stderr line naming the file and --reset, every file byte-identical', async (_what, corrupt, named) => {
    const at = copyOfTemplate();
    corrupt(at);
    const before = filesOf(at);
    const result = await runCli(['--db', 'db.json', '--port', '0'], at);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(result.stderr.trimEnd().split('\n'), `stderr must be one line: ${JSON.stringify(result.stderr)}`).toHaveLength(1);
    expect(result.stderr).toMatch(new RegExp(`^shortlink-mock: .*${escape(join(at, named))}.*--reset`));
    // No silent re-seed, no repair: the user's bytes are exactly as they were.
    expect(filesOf(at)).toEqual(before);

    // The way out works: --reset starts on a freshly seeded db and drops the broken log.
    running = await startCli(['--db', 'db.json', '--quiet', '--reset'], at);
    expect(running.output()).toMatch(/db\s+db\.json \(seeded/);
    const links = (await (await fetch(`${running.url}/__admin/links?account=demo-key`)).json()) as { links: { slug: string }[] };
    expect(links.links.filter((link) => link.slug.startsWith('kept-'))).toEqual([]);
    expect(existsSync(join(at, 'db.json.changes'))).toBe(false);
  });

  it('the change log of the state before a reset, still beside the new db.json (kill -9 between the two), is not replayed over it', async () => {
    const at = copyOfTemplate();
    const oldLog = readFileSync(join(at, 'db.json.changes'));
    const cli = await startCli(['--db', 'db.json', '--quiet'], at);
    try {
      expect((await fetch(`${cli.url}/__admin/reset`, { method: 'POST' })).status).toBe(200);
    } finally {
      expect(await cli.stop('SIGTERM')).toBe(0);
    }
    expect(readdirSync(at)).toEqual(['db.json']);
    // The files as a kill -9 after the new db.json's rename, before the old log's removal, leaves them.
    writeFileSync(join(at, 'db.json.changes'), oldLog);
    running = await startCli(['--db', 'db.json', '--quiet'], at);
    const res = await fetch(`${running.url}/__admin/links?account=demo-key`);
    expect(res.status).toBe(200);
    const slugs = ((await res.json()) as { links: { slug: string }[] }).links.map((link) => link.slug);
    expect(slugs.filter((slug) => slug.startsWith('kept-')), 'links of the state before the reset').toEqual([]);
    expect(slugs.length).toBeGreaterThan(0);
  });

  it('a torn last line of db.json.changes (a crash mid-append) is cut off, and every complete line loads', async () => {
    const at = copyOfTemplate();
    const log = join(at, 'db.json.changes');
    const text = readFileSync(log, 'utf8');
    // Cut the last line (the last create's put-link) in half.
    const lastStart = text.slice(0, -1).lastIndexOf('\n') + 1;
    const cut = lastStart + Math.floor((text.length - lastStart) / 2);
    truncateSync(log, Buffer.byteLength(text.slice(0, cut)));
    running = await startCli(['--db', 'db.json', '--quiet'], at);
    expect(running.output()).toContain('kept from an earlier run');
    const res = await fetch(`${running.url}/__admin/links?account=demo-key`);
    const ids = new Set(((await res.json()) as { links: { id: string }[] }).links.map((link) => link.id));
    expect(createdIds.slice(0, -1).filter((id) => !ids.has(id))).toEqual([]);
    expect(ids.has(createdIds.at(-1) as string)).toBe(false);
    expect(readFileSync(log, 'utf8')).toBe(text.slice(0, lastStart));
  });
});

/** The CLI on `db` in `at`: exit 2, one stderr line saying it is not our file, and `at` unchanged. */
async function expectRefusedAsNotOurs(at: string, db: string, args: string[]): Promise<void> {
  const before = filesOf(at);
  const result = await runCli(['--db', db, '--port', '0', ...args], at);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n'), `stderr must be one line: ${JSON.stringify(result.stderr)}`).toHaveLength(1);
  expect(result.stderr).toMatch(new RegExp(`^shortlink-mock: --db: db ${escape(join(at, db))}: this is not a shortlink-mock db file \\(`));
  expect(filesOf(at), 'every file byte-identical, nothing written beside them').toEqual(before);
}

describe('a db path that holds something else than a shortlink-mock db', () => {
  it.each([[[]], [['--reset']]])('a copy of package.json, with %j: refused, byte-identical', async (args) => {
    dir = mkdtempSync(join(tmpdir(), 'slm-not-ours-'));
    cpSync(join(PACKAGE_ROOT, 'package.json'), join(dir, 'package.json'));
    await expectRefusedAsNotOurs(dir, 'package.json', args);
    expect(readFileSync(join(dir, 'package.json'))).toEqual(readFileSync(join(PACKAGE_ROOT, 'package.json')));
  });

  it.each([[[]], [['--reset']]])('db.json overwritten with garbage bytes, with %j: refused, byte-identical', async (args) => {
    const at = copyOfTemplate();
    writeFileSync(join(at, 'db.json'), garbage(4096));
    await expectRefusedAsNotOurs(at, 'db.json', args);
  });

  it.each([[[]], [['--reset']]])('a directory, with %j: refused, and no stray file beside it', async (args) => {
    dir = mkdtempSync(join(tmpdir(), 'slm-not-ours-'));
    mkdirSync(join(dir, 'data', 'inside'), { recursive: true });
    await expectRefusedAsNotOurs(dir, 'data', args);
    expect(readdirSync(dir)).toEqual(['data']);
  });
});
