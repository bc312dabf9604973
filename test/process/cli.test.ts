// The CLI as a user runs it: a real process on a free port, answering over real HTTP, keeping its
// data across a restart, stopping cleanly on SIGTERM, and failing start-up in one clear line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.js';

let dir: string;
let running: CliProcess | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-cli-'));
});
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const createLink = (url: string, slug: string) =>
  fetch(`${url}/links`, {
    method: 'POST',
    headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
    body: JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', slug, tags: [] }),
  });

describe('shortlink-mock CLI', () => {
  it('starts on a free port, prints the URL, db and demo keys, answers, and keeps data across a SIGTERM restart', async () => {
    running = await startCli(['--db', 'state/db.json'], dir);
    expect(running.output()).toMatch(/db\s+.*state\/db\.json \(seeded/);
    for (const key of ['demo-key', 'other-key', 'limited-key']) expect(running.output()).toContain(key);
    const created = await createLink(running.url, 'from-cli');
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await running.waitForOutput(/POST \/links 201 \d+\.\dms/);
    expect(await running.stop('SIGTERM')).toBe(0);

    running = await startCli(['--db', 'state/db.json', '--quiet'], dir);
    expect(running.output()).toContain('kept from an earlier run');
    const updated = await fetch(`${running.url}/links/${id}`, {
      method: 'PUT',
      headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
      body: JSON.stringify({ tags: [{ name: 'after-restart' }] }),
    });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ slug: 'from-cli', tags: [{ name: 'after-restart' }] });
    expect(running.output()).not.toMatch(/PUT \/links/);
  });

  it('serves the contract and health, with :memory: writing nothing', async () => {
    running = await startCli(['--db', ':memory:'], dir);
    expect((await fetch(`${running.url}/openapi.yaml`)).status).toBe(200);
    expect(await (await fetch(`${running.url}/__admin/health`)).json()).toMatchObject({ status: 'ok' });
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--port', 'abc'], /--port must be a whole number/],
    [['--db', 'bad.json'], /bad\.json.*--reset/],
    [['--fixtures', 'missing.json'], /cannot load fixtures .*missing\.json/],
  ])('refuses %j with one line on stderr and exit code 2', async (args, message) => {
    writeFileSync(join(dir, 'bad.json'), '{"formatVersion": 1, "acc');
    const result = await runCli(args, dir);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('lists every option in --help', async () => {
    const result = await runCli(['--help'], dir);
    expect(result.code).toBe(0);
    for (const flag of ['--port', '--host', '--db', '--seed', '--reset', '--fixtures', '--cors-origin', '--quiet']) {
      expect(result.stdout).toContain(flag);
    }
  });
});
