// The file store against a faulty machine (issue 23, items 1, 2 and 9), on the built CLI: a new
// key's account on a full disk, a reset with no file descriptor left (prlimit on the running
// process), and the cap of --accept-any-key. Each ends with a kill -9 and a restart: the db opens,
// and every acknowledged link and account is there.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, jsonHeaders, listLinks, send, startServer, stopAll, type Answer, type Server } from './helpers.js';
import { fillDisk, mountTmpfs, requireTmpfs, skip, unmountAll } from './tmpfs.js';

const started: Server[] = [];
requireTmpfs();
let base: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'slm-hostile-fs-'));
});
afterEach(async () => {
  await stopAll(started);
  unmountAll();
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** One request on `agent` (a keep-alive agent reuses its socket: no new descriptor on either side). */
const call = (agent: http.Agent, url: string, method: string, path: string, apiKey = DEMO, body?: unknown): Promise<Answer> =>
  send(agent, url, { method, path, headers: jsonHeaders(apiKey), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const createLink = (agent: http.Agent, url: string, apiKey: string, slug: string): Promise<Answer> =>
  call(agent, url, 'POST', '/links', apiKey, { destinationUrl: `https://example.com/${slug}`, domain: 'short.test', tags: [], slug });
/** A use of a key that changes nothing: the delete of a link that is not there (404 once the key has an account). */
const touch = (agent: http.Agent, url: string, apiKey: string): Promise<Answer> => call(agent, url, 'DELETE', '/links/lnk_0000000000000000', apiKey);
const description = (answer: Answer): string => {
  expect(answer.contentType, answer.text).toMatch(/^application\/json/);
  return (JSON.parse(answer.text) as { errorDescription: string }).errorDescription;
};
const idOf = (answer: Answer): string => (JSON.parse(answer.text) as { id: string }).id;

describe.skipIf(skip)('--accept-any-key on a full disk', () => {
  it('a new key whose account cannot be written is a 500 and no account; acknowledged keys and links survive kill -9', async () => {
    const mnt = join(base, 'full');
    mountTmpfs(mnt, 'size=2m');
    const args = ['--db', join(mnt, 'db.json'), '--quiet', '--accept-any-key'];
    let server = await startServer(args, base, started);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const filler = fillDisk(mnt);
      // The log's last page may still take an account or two (acknowledged: they must survive); then one is refused.
      const acknowledged: string[] = [];
      let refused: string | undefined;
      for (let n = 0; n < 40 && !refused; n += 1) {
        const key = `ci-full-${n}`;
        const answer = await touch(agent, server.url, key);
        if (answer.status === 404) acknowledged.push(key);
        else {
          expect(answer.status, answer.text).toBe(500);
          expect(description(answer)).toMatch(/could not be saved.*ENOSPC/);
          refused = key;
        }
      }
      expect(refused, 'a new key refused while the disk is full').toBeDefined();
      expect((await call(agent, server.url, 'GET', '/__admin/health')).status).toBe(200);
      rmSync(filler);
      const created = await createLink(agent, server.url, refused as string, 'made-once-there-is-room');
      expect(created.status, created.text).toBe(201);

      expect((await server.signal('SIGKILL')).signal).toBe('SIGKILL');
      server = await startServer(args, base, started);
      expect((await listLinks(server.url, refused)).get(idOf(created))?.slug).toBe('made-once-there-is-room');
      for (const key of acknowledged) expect((await listLinks(server.url, key)).size, key).toBe(5);
    } finally {
      agent.destroy();
    }
  });
});

describe('a reset with no file descriptor left (prlimit)', () => {
  it('is a 500 that changes nothing; changes after it are kept, and the db reopens after kill -9', async () => {
    const dir = mkdtempSync(join(base, 'fds-'));
    const args = ['--db', join(dir, 'db.json'), '--quiet'];
    let server = await startServer(args, base, started);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const before = await createLink(agent, server.url, DEMO, 'before-the-reset');
      expect(before.status, before.text).toBe(201);
      // A limit at the lowest free descriptor number: every open fails with EMFILE, the open ones go on working.
      const limit = /^Max open files\s+(\d+)\s+(\d+)/m.exec(readFileSync(`/proc/${server.pid}/limits`, 'utf8'));
      const open = new Set(readdirSync(`/proc/${server.pid}/fd`).map(Number));
      let lowestFree = 0;
      while (open.has(lowestFree)) lowestFree += 1;
      // The soft limit only: raising a hard limit back needs CAP_SYS_RESOURCE, which a container may not give.
      execFileSync('prlimit', ['--pid', String(server.pid), `--nofile=${lowestFree}:${limit?.[2]}`]);
      const reset = await call(agent, server.url, 'POST', '/__admin/reset');
      const after = await createLink(agent, server.url, DEMO, 'after-the-failed-reset');
      execFileSync('prlimit', ['--pid', String(server.pid), `--nofile=${limit?.[1]}:${limit?.[2]}`]);
      expect(reset.status, reset.text).toBe(500);
      expect(description(reset)).toMatch(/EMFILE/);
      expect(after.status, after.text).toBe(201);
      const links = await listLinks(server.url);
      expect(links.has(idOf(before)) && links.has(idOf(after)), 'both links, in memory after the failed reset').toBe(true);

      expect((await server.signal('SIGKILL')).signal).toBe('SIGKILL');
      server = await startServer(args, base, started);
      const reopened = await listLinks(server.url);
      expect([idOf(before), idOf(after)].filter((id) => !reopened.has(id)), 'acknowledged links missing after kill -9').toEqual([]);
      expect((await call(agent, server.url, 'POST', '/__admin/reset')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('--max-any-key-accounts', () => {
  it('past the cap a new key is a 401 saying why; the accounts made survive kill -9', async () => {
    const dir = mkdtempSync(join(base, 'cap-'));
    const args = ['--db', join(dir, 'db.json'), '--quiet', '--accept-any-key', '--max-any-key-accounts', '8'];
    let server = await startServer(args, base, started);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => touch(agent, server.url, `ci-cap-${n}`)));
      const made = answers.flatMap((answer, n) => (answer.status === 404 ? [`ci-cap-${n}`] : []));
      const refused = answers.filter((answer) => answer.status === 401);
      expect(made.length + refused.length, JSON.stringify(answers.map((answer) => answer.status))).toBe(20);
      // 3 fixture accounts: 5 made, give or take those made at the same moment as the last one (4 sockets).
      expect(made.length).toBeGreaterThanOrEqual(5);
      expect(made.length).toBeLessThanOrEqual(5 + 3);
      expect(description(refused[0] as Answer)).toMatch(/--max-any-key-accounts 8/);

      expect((await server.signal('SIGKILL')).signal).toBe('SIGKILL');
      server = await startServer(args, base, started);
      for (const key of made) expect((await listLinks(server.url, key)).size, key).toBe(5);
      expect((await touch(agent, server.url, 'ci-cap-late')).status).toBe(401);
    } finally {
      agent.destroy();
    }
  });
});
