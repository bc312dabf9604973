// `shortlink-mock pact export` and the `pact` dispatcher: flags, exit codes (0 written, 1 failure,
// 2 bad flag) and messages, against mocks of this process (startMock).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPactCommand } from '../../src/commands/pact.js';
import type { PactFile } from '../../src/pact/export-pact-v3.js';
import { defaultPactFile, runPactExport } from '../../src/pact/export-command.js';
import { startMock, type RunningMock } from '../../src/index.js';
import { holdRefusingPort } from '../helpers/refusing-port.js';

const dir = mkdtempSync(join(tmpdir(), 'pact-export-'));

function capture() {
  const io = { lines: [] as string[], errors: [] as string[], out: (text: string) => void io.lines.push(text), err: (text: string) => void io.errors.push(text) };
  return io;
}

const createLink = (mock: RunningMock, key: string) =>
  fetch(`${mock.url}/links`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ destinationUrl: 'https://example.com/', domain: 'short.test', tags: [] }) });

describe('pact export', () => {
  let mock: RunningMock;
  let guarded: RunningMock;
  beforeAll(async () => {
    [mock, guarded] = await Promise.all([startMock({ log: () => undefined }), startMock({ log: () => undefined, adminToken: 'sekret-token' })]);
  });
  afterAll(async () => {
    await Promise.all([mock?.stop(), guarded?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [['--provider', 'api'], /--consumer NAME is required/],
    [['--consumer', 'web', '--bogus'], /Unknown option '--bogus'/],
    [['--consumer', 'web', '--base-url', 'ftp://x'], /--base-url must be an http\(s\) URL/],
    [['--consumer', ' '], /--consumer must not be empty/],
  ])('%j is a bad flag: exit 2', async (argv, message) => {
    const io = capture();
    expect(await runPactExport(argv, {}, io)).toBe(2);
    expect(io.errors.join('\n')).toMatch(message);
  });

  it.each([
    ['web', 'shortlink-api', 'pacts/web-shortlink-api.json'],
    ['Links Web/App', 'api v2', 'pacts/Links_Web_App-api_v2.json'],
  ])('--out defaults to pacts/<consumer>-<provider>.json: %s, %s', (consumer, provider, file) => {
    expect(defaultPactFile(consumer, provider)).toBe(file);
  });

  it('--help: exit 0, every option listed', async () => {
    const io = capture();
    expect(await runPactExport(['--help'], {}, io)).toBe(0);
    for (const flag of ['--consumer', '--provider', '--api-key', '--base-url', '--admin-token', '--out']) expect(io.lines.join('\n')).toContain(flag);
  });

  it('a mock that cannot be reached: exit 1, naming it', async () => {
    const io = capture();
    const refusing = await holdRefusingPort();
    const url = refusing.url;
    try {
      expect(await runPactExport(['--consumer', 'web', '--base-url', url, '--out', join(dir, 'never.json')], {}, io)).toBe(1);
      expect(io.errors.join('\n')).toMatch(new RegExp(`cannot reach the mock at ${url}`));
    } finally {
      await refusing.release();
    }
  });

  it('nothing to export: exit 1, saying why', async () => {
    await mock.clearJournal();
    const shaped = await fetch(`${mock.url}/links/lnk_any`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key', 'x-mock-scenario': 'not-found' } });
    expect(shaped.status).toBe(404);
    const io = capture();
    expect(await runPactExport(['--consumer', 'web', '--base-url', mock.url, '--out', join(dir, 'never.json')], {}, io)).toBe(1);
    expect(io.errors.join('\n')).toMatch(/nothing to export[\s\S]*skipped 1: shaped by a scenario/);
  });

  // It was exit 1 ("unreachable or nothing to export") without naming --out (black-box sweep, stop 54).
  it('an --out that cannot be written (a file where a directory must be): exit 2, naming --out', async () => {
    await createLink(mock, 'demo-key');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const io = capture();
    expect(await runPactExport(['--consumer', 'web', '--base-url', mock.url, '--out', join(file, 'web.json')], {}, io)).toBe(2);
    expect(io.errors.join('\n')).toMatch(new RegExp(`cannot write --out ${join(file, 'web.json')}: ENOTDIR`));
  });

  it("--api-key: only that key's exchanges; a key no account has is exit 1", async () => {
    await mock.clearJournal();
    await Promise.all([createLink(mock, 'demo-key'), createLink(mock, 'other-key')]);
    const out = join(dir, 'nested', 'other.json');
    const io = capture();
    expect(await runPactExport(['--consumer', 'web', '--provider', 'links api', '--api-key', 'other-key', '--base-url', mock.url, '--out', out], {}, io)).toBe(0);
    const pact = JSON.parse(readFileSync(out, 'utf8')) as PactFile;
    expect(pact.provider.name).toBe('links api');
    expect(pact.interactions.map((interaction) => interaction.request.headers?.['x-api-key'])).toEqual(['other-key']);
    expect(io.lines.join('\n')).toMatch(/wrote .*other\.json \(Pact V3\): 1 interaction\(s\)[\s\S]*skipped 1: another API key/);
    const refused = capture();
    expect(await runPactExport(['--consumer', 'web', '--api-key', 'nobody', '--base-url', mock.url, '--out', out], {}, refused)).toBe(1);
    expect(refused.errors.join('\n')).toMatch(/no account has the API key 'nobody'/);
  });

  it('a mock with an admin token: without it exit 1 saying so; MOCK_ADMIN_TOKEN and MOCK_BASE_URL are read', async () => {
    await createLink(guarded, 'demo-key');
    const io = capture();
    expect(await runPactExport(['--consumer', 'web', '--base-url', guarded.url, '--out', join(dir, 'g.json')], {}, io)).toBe(1);
    expect(io.errors.join('\n')).toMatch(/needs its admin token/);
    expect(await runPactExport(['--consumer', 'web', '--out', join(dir, 'g.json')], { MOCK_ADMIN_TOKEN: 'sekret-token', MOCK_BASE_URL: guarded.url }, capture())).toBe(0);
  });
});

describe('pact (the dispatcher)', () => {
  it.each([
    [[], 2, /a subcommand is required/],
    [['bogus'], 2, /unknown subcommand 'bogus'/],
    [['constructor'], 2, /unknown subcommand/],
    [['--help'], 0, /pact <export\|check>/],
    [['export', '--help'], 0, /pact export --consumer NAME/],
  ])('%j: exit %i', async (argv, code, message) => {
    const io = capture();
    expect(await runPactCommand(argv, {}, io)).toBe(code);
    expect([...io.lines, ...io.errors].join('\n')).toMatch(message);
  });

  it('check is loaded from src/pact/check-command.ts', async () => {
    const io = capture();
    expect(await runPactCommand(['check', '--help'], {}, io)).toBe(0);
    expect(io.lines.join('\n')).toMatch(/pact check/);
  });
});
