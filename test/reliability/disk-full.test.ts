// A full disk and a read-only db directory, made real with a small tmpfs mounted for the test
// (as root: `chmod` does not stop root's writes, so a permission trick would prove nothing). While
// the db cannot be written, every write request must get an Error object, the server must keep
// answering, and what it shows must not include the changes it failed to write; once the disk is
// writable again, writes succeed without a restart; and after a restart the db loads with every
// acknowledged change. Where tmpfs cannot be mounted (no CAP_SYS_ADMIN), it fails in CI (CI set)
// and as root, where it must run; only a developer's non-root run skips it, saying why.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process.js';
import { DEMO, jsonHeaders, listLinks, send, startServer, stopAll, type Answer, type Server } from './helpers.js';
import { fillDisk, mountTmpfs, requireTmpfs, skip, unmountAll } from './tmpfs.js';

const started: Server[] = [];
requireTmpfs();

interface Outcome {
  acked: Map<string, string>;
  refused: { slug: string; answer: Answer }[];
}

/** `count` creates from 10 concurrent client loops, with slugs `${label}-${n}`. */
async function creates(url: string, label: string, count: number): Promise<Outcome> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  const outcome: Outcome = { acked: new Map(), refused: [] };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const slug = `${label}-${next++}`;
      const answer = await send(agent, url, { method: 'POST', path: '/links', headers: jsonHeaders(), body: JSON.stringify({ destinationUrl: `https://example.com/${slug}`, domain: 'short.test', tags: [], slug }) });
      if (answer.status === 201) outcome.acked.set((JSON.parse(answer.text) as { id: string }).id, slug);
      else outcome.refused.push({ slug, answer });
    }
  };
  try {
    await Promise.all(Array.from({ length: 10 }, worker));
  } finally {
    agent.destroy();
  }
  return outcome;
}

const once = (url: string, method: string, path: string, body?: unknown): Promise<Answer> => {
  const agent = new http.Agent({ keepAlive: false });
  return send(agent, url, { method, path, headers: jsonHeaders(), ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).finally(() => agent.destroy());
};

/** An Error object of the contract: JSON with a string errorDescription. */
function expectErrorObject(answer: Answer, what: string): void {
  expect(answer.contentType, `${what}: content type`).toMatch(/^application\/json/);
  const body = JSON.parse(answer.text) as { errorDescription?: unknown };
  expect(typeof body.errorDescription, `${what}: ${answer.text}`).toBe('string');
}

const statusCounts = (answers: Answer[]): Record<number, number> =>
  answers.reduce<Record<number, number>>((counts, answer) => ({ ...counts, [answer.status]: (counts[answer.status] ?? 0) + 1 }), {});

describe.skipIf(skip)('a full disk under the db', () => {
  let base: string;
  let mnt: string;
  let db: string;
  let server: Server;
  let filler: string;
  /** Every change acknowledged: links that must exist (id → destinationUrl), links that must be gone. */
  const present = new Map<string, string>();
  const deleted = new Set<string>();
  /** Writes answered with an error while the disk was full. */
  const refusedSlugs: string[] = [];
  let refusedUpdate: { id: string; destinationUrl: string } | undefined;
  let refusedDelete: string | undefined;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'slm-full-'));
    mnt = join(base, 'mnt');
    mountTmpfs(mnt, 'size=2m');
    db = join(mnt, 'db.json');
    server = await startServer(['--db', db, '--quiet'], base, started);
    const before = await creates(server.url, 'before', 100);
    expect(before.refused).toEqual([]);
    for (const [id, slug] of before.acked) present.set(id, `https://example.com/${slug}`);
  });

  afterAll(async () => {
    await stopAll(started);
    unmountAll();
    rmSync(base, { recursive: true, force: true });
  });

  it('answers an Error object to every write it cannot persist, and keeps answering', async () => {
    filler = fillDisk(mnt);
    // The log's last page may still take a few lines (those are written, and acknowledged); then
    // the creates fail.
    const burst = await creates(server.url, 'full', 200);
    for (const [id, slug] of burst.acked) present.set(id, `https://example.com/${slug}`);
    expect(burst.refused.length, 'creates refused while the disk is full').toBeGreaterThan(100);
    for (const { slug, answer } of burst.refused) {
      expectErrorObject(answer, `create ${slug}`);
      refusedSlugs.push(slug);
    }
    // A short update or delete line may still fit in the page's last bytes: go on until one is
    // refused, keeping every one acknowledged (bounded: the page has at most a few KiB left).
    const answers: Answer[] = burst.refused.map((refused) => refused.answer);
    const candidates = [...present.keys()];
    for (let n = 0; n < 40 && !refusedUpdate; n += 1) {
      const id = candidates.shift() as string;
      const destinationUrl = `https://example.com/updated-while-full-${n}`;
      const answer = await once(server.url, 'PUT', `/links/${id}`, { destinationUrl });
      answers.push(answer);
      if (answer.status === 200) present.set(id, destinationUrl);
      else {
        expectErrorObject(answer, 'update');
        refusedUpdate = { id, destinationUrl: present.get(id) as string };
      }
    }
    for (let n = 0; n < 40 && !refusedDelete; n += 1) {
      const id = candidates.shift() as string;
      const answer = await once(server.url, 'DELETE', `/links/${id}`);
      answers.push(answer);
      if (answer.status === 204) {
        present.delete(id);
        deleted.add(id);
      } else {
        expectErrorObject(answer, 'delete');
        refusedDelete = id;
      }
    }
    expect(refusedUpdate, 'an update refused while the disk is full').toBeDefined();
    expect(refusedDelete, 'a delete refused while the disk is full').toBeDefined();
    // Still answering: health, and a request that needs no write.
    expect((await once(server.url, 'GET', '/__admin/health')).status).toBe(200);
    expect((await once(server.url, 'PUT', '/links/lnk_0000000000000000', { tags: [] })).status).toBe(404);
    console.log(`[disk-full] ${burst.acked.size} creates still fit in the log's last page; answers while full: ${JSON.stringify(statusCounts(answers))}, refused ones e.g. ${burst.refused[0]?.answer.text}`);
  });

  it('shows none of the writes it failed: refused links are not listed, a refused update or delete changed nothing', async () => {
    const links = await listLinks(server.url);
    const slugs = new Set([...links.values()].map((link) => link.slug));
    expect(refusedSlugs.filter((slug) => slugs.has(slug)), 'links answered with an error but listed by the server').toEqual([]);
    expect(links.get(refusedUpdate?.id ?? '')?.destinationUrl, 'a refused update').toBe(refusedUpdate?.destinationUrl);
    expect(links.has(refusedDelete ?? ''), 'a refused delete').toBe(true);
  });

  it('writes again, without a restart, once there is space', async () => {
    rmSync(filler);
    const after = await creates(server.url, 'after', 100);
    expect(after.refused.map(({ slug, answer }) => `${slug}: ${answer.status} ${answer.text}`)).toEqual([]);
    for (const [id, slug] of after.acked) present.set(id, `https://example.com/${slug}`);
    // A slug whose create was refused is free to take.
    const retry = await once(server.url, 'POST', '/links', { destinationUrl: 'https://example.com/retry', domain: 'short.test', tags: [], slug: refusedSlugs[0] });
    expect(retry.status, `retrying the refused create of '${refusedSlugs[0]}': ${retry.text}`).toBe(201);
    present.set((JSON.parse(retry.text) as { id: string }).id, 'https://example.com/retry');
    // And the refused delete can now be done.
    expect((await once(server.url, 'DELETE', `/links/${refusedDelete}`)).status).toBe(204);
    present.delete(refusedDelete as string);
    deleted.add(refusedDelete as string);
  });

  it('loads after a restart, with every acknowledged change and none of the refused ones', async () => {
    expect((await server.signal('SIGTERM')).code).toBe(0);
    // The restart must load the db (startServer rejects, with the CLI's output, when it exits instead).
    server = await startServer(['--db', db, '--quiet'], base, started);
    const links = await listLinks(server.url, DEMO);
    expect([...present].filter(([id, url]) => links.get(id)?.destinationUrl !== url), 'acknowledged links missing or changed').toEqual([]);
    expect([...deleted].filter((id) => links.has(id)), 'acknowledged deletes undone').toEqual([]);
    const slugs = new Set([...links.values()].map((link) => link.slug));
    expect(refusedSlugs.slice(1).filter((slug) => slugs.has(slug)), 'refused creates that came back').toEqual([]);
  });
});

describe.skipIf(skip)('a read-only db directory', () => {
  let base: string;
  let mnt: string;
  let db: string;
  let server: Server;
  const present = new Map<string, string>();
  let refusedSlugs: string[] = [];
  let refusedUpdate: { id: string; destinationUrl: string } | undefined;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'slm-ro-'));
    mnt = join(base, 'mnt');
    mountTmpfs(mnt, 'size=2m');
    db = join(mnt, 'db.json');
    const first = await startServer(['--db', db, '--quiet'], base, started);
    const made = await creates(first.url, 'before', 50);
    expect(made.refused).toEqual([]);
    for (const [id, slug] of made.acked) present.set(id, `https://example.com/${slug}`);
    expect((await first.signal('SIGTERM')).code).toBe(0);
    // No process holds a file open for writing now, so the mount can turn read-only.
    execFileSync('mount', ['-o', 'remount,ro', mnt], { stdio: 'pipe' });
  });

  afterAll(async () => {
    await stopAll(started);
    unmountAll();
    rmSync(base, { recursive: true, force: true });
  });

  it('starts on the db it holds, answers an Error object to every write, and keeps answering', async () => {
    server = await startServer(['--db', db, '--quiet'], base, started);
    const links = await listLinks(server.url);
    expect([...present].filter(([id]) => !links.has(id))).toEqual([]);
    const refused = await creates(server.url, 'readonly', 30);
    expect(refused.acked.size, 'creates acknowledged on a read-only directory').toBe(0);
    for (const { slug, answer } of refused.refused) expectErrorObject(answer, `create ${slug}`);
    refusedSlugs = refused.refused.map(({ slug }) => slug);
    const [someId] = present.keys();
    const update = await once(server.url, 'PUT', `/links/${someId}`, { destinationUrl: 'https://example.com/never-written' });
    expect(update.status).toBeGreaterThanOrEqual(400);
    expectErrorObject(update, 'update');
    refusedUpdate = { id: someId as string, destinationUrl: present.get(someId as string) as string };
    expect((await once(server.url, 'GET', '/__admin/health')).status).toBe(200);
    console.log(`[read-only] refused writes answered ${JSON.stringify(statusCounts([...refused.refused.map((r) => r.answer), update]))}, e.g. ${refused.refused[0]?.answer.text}`);
  });

  it('shows none of the writes it failed', async () => {
    const links = await listLinks(server.url);
    const slugs = new Set([...links.values()].map((link) => link.slug));
    expect(refusedSlugs.filter((slug) => slugs.has(slug)), 'links answered with an error but listed by the server').toEqual([]);
    expect(links.get(refusedUpdate?.id ?? '')?.destinationUrl, 'a refused update').toBe(refusedUpdate?.destinationUrl);
  });

  it('writes again once the directory is writable, and loads after a restart with every acknowledged change', async () => {
    execFileSync('mount', ['-o', 'remount,rw', mnt], { stdio: 'pipe' });
    const after = await creates(server.url, 'writable', 30);
    expect(after.refused.map(({ slug, answer }) => `${slug}: ${answer.status} ${answer.text}`)).toEqual([]);
    for (const [id, slug] of after.acked) present.set(id, `https://example.com/${slug}`);
    expect((await server.signal('SIGTERM')).code).toBe(0);
    const again = await startServer(['--db', db, '--quiet'], base, started);
    const reloaded = await listLinks(again.url);
    expect([...present].filter(([id, url]) => reloaded.get(id)?.destinationUrl !== url), 'acknowledged links missing or changed').toEqual([]);
    const slugs = new Set([...reloaded.values()].map((link) => link.slug));
    expect(refusedSlugs.filter((slug) => slugs.has(slug)), 'refused creates that came back').toEqual([]);
    expect((await again.signal('SIGTERM')).code).toBe(0);
  });

  it('refuses to start in it without a db: exit 2 and one stderr line naming the db', async () => {
    execFileSync('mount', ['-o', 'remount,ro', mnt], { stdio: 'pipe' });
    const fresh = join(mnt, 'fresh.json');
    const result = await runCli(['--db', fresh, '--port', '0'], base);
    execFileSync('mount', ['-o', 'remount,rw', mnt], { stdio: 'pipe' });
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n'), `stderr must be one line: ${JSON.stringify(result.stderr)}`).toHaveLength(1);
    expect(result.stderr).toContain(fresh);
  });
});
