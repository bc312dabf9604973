// Issue 40: a mock killed with SIGKILL while creates and deletes are in flight starts again with
// pages that agree with its data: every acknowledged link once, newest first, the same whatever
// the page size (the index per account is rebuilt from the data at start, never stored apart).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Link } from '../../src/core/api-types.js';
import { startCli, type CliProcess } from '../helpers/cli-process.js';

const IN_FLIGHT = 8;
const ROUNDS = 12;
let dir: string | undefined;
let running: CliProcess | undefined;
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const headers = { 'x-api-key': 'demo-key', 'content-type': 'application/json' };

/** Every page of demo-key's links at this size, with the cursor of each. */
async function walk(url: string, limit: number): Promise<Link[]> {
  const links: Link[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1_000; page += 1) {
    const res = await fetch(`${url}/__admin/links?account=demo-key&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { links: Link[]; nextCursor?: string };
    links.push(...body.links);
    cursor = body.nextCursor;
    if (!cursor) return links;
  }
  throw new Error('more than 1,000 pages');
}

describe('a kill -9 mid-way', () => {
  it('leaves pages that hold every acknowledged link once, newest first, at any page size', async () => {
    dir = mkdtempSync(join(tmpdir(), 'slm-pages-crash-'));
    running = await startCli(['--db', 'db.json', '--quiet'], dir);
    const { url } = running;
    const acknowledged = new Set<string>();
    const deleted = new Set<string>();
    const create = async (n: number): Promise<void> => {
      const res = await fetch(`${url}/links`, { method: 'POST', headers, body: JSON.stringify({ destinationUrl: `https://example.com/${n}`, domain: 'short.test', tags: [] }) }).catch(() => undefined);
      if (res?.status !== 201) return;
      const { id } = (await res.json()) as { id: string };
      acknowledged.add(id);
      // Every third is deleted again at once: deletes in flight too.
      if (n % 3 === 0 && (await fetch(`${url}/links/${id}`, { method: 'DELETE', headers }).catch(() => undefined))?.status === 204) deleted.add(id);
    };
    for (let round = 0; round < ROUNDS; round += 1) await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => create(round * IN_FLIGHT + i)));
    // The last round is killed while its requests are in flight.
    const last = Array.from({ length: IN_FLIGHT }, (_, i) => create(ROUNDS * IN_FLIGHT + i));
    await running.stop('SIGKILL');
    await Promise.all(last);

    running = await startCli(['--db', 'db.json', '--quiet'], dir);
    const small = await walk(running.url, 7);
    const ids = small.map((link) => link.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of acknowledged) if (!deleted.has(id)) expect(ids).toContain(id);
    for (const id of deleted) expect(ids).not.toContain(id);
    const order = small.map((link) => [link.createdAt, link.id].join(' '));
    expect(order).toEqual([...order].sort().reverse());
    expect((await walk(running.url, 1_000)).map((link) => link.id)).toEqual(ids);
  }, 60_000);
});
