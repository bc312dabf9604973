// What `shortlink-mock contract` says besides the checks (issue 12, item 18): the note about a
// global scenario before the summary, the refusal of a --junit path it could not write, before any
// request, and the clean-up line. runContractCommand runs in process against in-process servers.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listen, startInProcessMock, type Listening } from '../../contract-tests/servers.js';
import { runContractCommand } from '../../src/contract/command.js';

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-contract-messages-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function contract(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runContractCommand(argv, env, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err };
}

const quick = (url: string): string[] => ['--base-url', url, '--api-key', 'demo-key', '--fuzz-runs', '0', '--seed', '1'];

describe('contract against a mock with a global scenario', () => {
  it('says, just before the summary, that the scenario is on and how to turn it off', async () => {
    server = await startInProcessMock({ scenario: 'not-found' });
    const run = await contract(quick(server.url));
    expect(run.code).toBe(1);
    const lines = run.out.split('\n');
    const summary = lines.findIndex((line) => line.startsWith('FAILED: '));
    expect(lines[summary - 1]).toBe(
      `note: the mock at ${server.url} has the global scenario 'not-found' on (GET /__admin/health); its forced answers fail these checks. ` +
        'Turn it off with PUT /__admin/scenario {"name": null} or the console.',
    );
  });

  it('says nothing of scenarios when none is on (and reports the clean-up as a sentence)', async () => {
    server = await startInProcessMock();
    const run = await contract(quick(server.url));
    expect(run.code, run.out).toBe(0);
    expect(run.out).not.toContain('note:');
    expect(run.out).toMatch(/^ +Deleted the \d+ links the checks left behind\.$/m);
  });
});

describe('contract --junit to a path it cannot write', () => {
  /** A server that records every request: the refusal must come before the first one. */
  async function recordingServer(): Promise<string[]> {
    const requests: string[] = [];
    server = await listen((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"errorDescription":"no"}');
    });
    return requests;
  }

  it.each([
    ['under a file', (): string => join(file('a-file'), 'reports', 'x.xml'), /a-file is not a directory$/],
    ['a directory', (): string => directory('a-directory'), /a-directory is a directory$/],
  ])('refuses a path %s with one line and exit code 2 before any request', async (_name, path, reason) => {
    const requests = await recordingServer();
    const junit = path();
    const run = await contract([...quick(server!.url), '--junit', junit]);
    expect({ code: run.code, out: run.out, err: run.err }).toEqual({ code: 2, out: '', err: [expect.stringMatching(reason)] });
    expect(run.err[0]).toContain(`shortlink-mock contract: cannot write --junit ${junit}: `);
    expect(requests).toEqual([]);
  });

  it('checks CONTRACT_JUNIT the same way', async () => {
    const requests = await recordingServer();
    const run = await contract(quick(server!.url), { CONTRACT_JUNIT: join(file('env-file'), 'x.xml') });
    expect(run.code).toBe(2);
    expect(run.err).toEqual([expect.stringMatching(/cannot write CONTRACT_JUNIT=.*env-file\/x\.xml: .*env-file is not a directory$/)]);
    expect(requests).toEqual([]);
  });

  it('accepts missing directories under a writable one, and writes the report there', async () => {
    await recordingServer();
    const junit = join(dir, 'ci', 'reports', 'contract.xml');
    const run = await contract([...quick(server!.url), '--timeout-ms', '2000', '--junit', junit]);
    // The recording server fails the checks, and the report is still written where asked.
    expect(run.code).toBe(1);
    expect(existsSync(junit)).toBe(true);
  });
});

function file(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, 'not a directory');
  return path;
}

function directory(name: string): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
}
