// mock_info's `contract` and the resource shortlink-mock://contract/openapi.yaml tell the contract
// the mock serves (its GET /openapi.yaml), not the package's own file: a mock started with
// --contract NEXT serves NEXT, whichever way the MCP server reaches it (stdio with a mock of its
// own, stdio with --base-url, /__admin/mcp).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { startMock, type RunningMock } from '../../src/toolkit/start-mock.js';
import { caller, httpMcp, jsonOf, stdioMcp } from './mcp-client.js';

const NEXT = { title: 'Short-Link Management API, next', version: '0.0.3-mcp' };

let dir: string;
let next: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-mcp-contract-'));
  next = join(dir, 'next.yaml');
  // A NEXT the mock can serve (Link gains an optional expiresAt), with a title and version of its own.
  const text = readFileSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'contracts', 'expires-at.yaml'), 'utf8');
  writeFileSync(next, text.replace('  title: Short-Link Management API\n  version: 0.0.3\n', `  title: ${NEXT.title}\n  version: ${NEXT.version}\n`));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** mock_info says NEXT's title and version, and the resource is the mock's own GET /openapi.yaml. */
async function expectServesNext(client: Client, baseUrl: string): Promise<void> {
  expect(jsonOf<{ contract: unknown }>(await caller(client)('mock_info')).contract).toEqual(NEXT);
  const resource = await client.readResource({ uri: 'shortlink-mock://contract/openapi.yaml' });
  const served = await (await fetch(`${baseUrl}/openapi.yaml`)).text();
  expect(served).toContain(`version: ${NEXT.version}`);
  expect(resource.contents[0]).toMatchObject({ mimeType: 'application/yaml', text: served });
}

describe('the contract mock_info and the resource tell', () => {
  it('shortlink-mock mcp --contract NEXT: NEXT', async () => {
    const mcp = await stdioMcp(['--contract', next]);
    try {
      const { baseUrl } = jsonOf<{ baseUrl: string }>(await caller(mcp.client)('mock_info'));
      await expectServesNext(mcp.client, baseUrl);
    } finally {
      await mcp.client.close();
    }
  });

  describe('of a mock started with --contract NEXT', () => {
    let mock: RunningMock;
    beforeAll(async () => {
      mock = await startMock({ contract: next, log: () => {} });
    });
    afterAll(async () => {
      await mock?.stop();
    });

    it('shortlink-mock mcp --base-url: what that mock serves', async () => {
      const mcp = await stdioMcp(['--base-url', mock.url]);
      try {
        await expectServesNext(mcp.client, mock.url);
      } finally {
        await mcp.client.close();
      }
    });

    it('/__admin/mcp: what the mock serves', async () => {
      const client = await httpMcp(mock.url);
      try {
        await expectServesNext(client, mock.url);
      } finally {
        await client.close();
      }
    });
  });

  it('a mock of the shipped contract: the shipped title and version', async () => {
    const mcp = await stdioMcp();
    try {
      const shipped = readFileSync(join(PACKAGE_ROOT, 'openapi.yaml'), 'utf8');
      const version = /^ {2}version: (.+)$/m.exec(shipped)?.[1];
      expect(jsonOf<{ contract: unknown }>(await caller(mcp.client)('mock_info')).contract).toEqual({ title: 'Short-Link Management API', version });
    } finally {
      await mcp.client.close();
    }
  });
});
