// `shortlink-mock coverage`: the coverage of a running mock as a table, per key, with what it
// has never met; against an in-process mock on a free port.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCoverage, runCoverageCommand } from '../../src/commands/coverage.js';
import { createTestApp, DEMO, LIMITED } from '../helpers/test-app.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function listening(options: Parameters<typeof createTestApp>[0] = {}) {
  const t = await createTestApp(options);
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server?.once('listening', resolve));
  return { t, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const create = { destinationUrl: 'https://example.com', domain: 'short.test', tags: [] };

describe('shortlink-mock coverage', () => {
  it('prints per key what was met and what never was', async () => {
    const { t, base } = await listening();
    await t.request.post('/links').set('x-api-key', DEMO).send(create).expect(201);
    await t.request.delete('/links/nope').set('x-api-key', DEMO).expect(404);
    await t.request.post('/links').set('x-api-key', LIMITED).send(create).expect(400);
    const lines: string[] = [];
    expect(await runCoverageCommand(['--base-url', base], {}, (line) => lines.push(line))).toBe(0);
    const text = lines.join('\n');
    expect(text).toMatch(/createLink 201\s+×1\s+never/);
    expect(text).toMatch(/createLink 400 LINK_LIMIT_REACHED\s+never\s+×1/);
    expect(text).toMatch(/deleteLink 404\s+×1\s+never/);
    expect(text).toMatch(/demo\*+: never met \d+: .*createLink 400 LINK_LIMIT_REACHED/);
    expect(text).not.toContain('demo-key');
  });

  it('sends the admin token, and reports a refusal', async () => {
    const { base } = await listening({ adminToken: 's3cret' });
    const lines: string[] = [];
    expect(await runCoverageCommand(['--base-url', base], {}, (line) => lines.push(line))).toBe(1);
    expect(lines.join('\n')).toMatch(/401/);
    expect(await runCoverageCommand(['--base-url', base, '--admin-token', 's3cret'], {}, (line) => lines.push(line))).toBe(0);
  });

  it.each([
    [['--bogus'], 2],
    [['--base-url', 'http://127.0.0.1:1'], 1],
  ])('exits %j → %i with one line', async (args, code) => {
    const lines: string[] = [];
    expect(await runCoverageCommand(args, {}, (line) => lines.push(line))).toBe(code);
    expect(lines).toHaveLength(1);
  });

  it('says so when nothing was seen', () => {
    expect(formatCoverage({ documented: [], accounts: [] })).toMatch(/nothing is covered/);
  });
});
