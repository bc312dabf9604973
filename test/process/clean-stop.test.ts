// After a clean stop (SIGTERM or SIGINT) db.json alone is current: the README sends users to it as
// a readable JSON file, so the links created over HTTP must be in it, and no change log is left
// beside it to hold them instead.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../src/core/model.js';
import { startCli, type CliProcess } from '../helpers/cli-process.js';

const CREATES = 12;
let dir: string | undefined;
let running: CliProcess | undefined;
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function createLinks(url: string): Promise<Map<string, string>> {
  const created = new Map<string, string>();
  for (let n = 0; n < CREATES; n += 1) {
    const destinationUrl = `https://example.com/clean-stop/${n}`;
    const res = await fetch(`${url}/links`, {
      method: 'POST',
      headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
      body: JSON.stringify({ destinationUrl, domain: 'short.test', tags: [{ name: `t${n % 3}` }] }),
    });
    expect(res.status).toBe(201);
    created.set(((await res.json()) as { id: string }).id, destinationUrl);
  }
  return created;
}

describe('a clean stop', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('on %s: db.json alone holds every link created, and no change log is left', async (signal) => {
    dir = mkdtempSync(join(tmpdir(), 'slm-clean-stop-'));
    running = await startCli(['--db', 'db.json', '--quiet'], dir);
    const created = await createLinks(running.url);
    // Running, the changes are in the log beside db.json, not yet in it.
    expect(readdirSync(dir).sort()).toEqual(['db.json', 'db.json.changes']);
    const cli = running;
    running = undefined;
    expect(await cli.stop(signal)).toBe(0);
    expect(cli.output()).toContain('stopped; every acknowledged change is written');
    expect(cli.output()).not.toContain('INTERNAL ERROR');
    expect(readdirSync(dir)).toEqual(['db.json']);
    // Read as a user would: the one file, parsed, no replay.
    const links = (JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')) as { links: Record<string, LinkRecord> }).links;
    expect([...created].filter(([id, destinationUrl]) => links[id]?.destinationUrl !== destinationUrl), 'links missing from db.json').toEqual([]);
  });
});
