// The documents an agent reads beside the tools, each by a fixed URI: the contract the mock serves
// (its GET /openapi.yaml, read from the mock when asked: served-contract.ts) and the guides under
// docs/, read from the package's own files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PACKAGE_ROOT } from '../../contract/package-root.js';
import type { AdminClient } from '../admin-client.js';
import { servedContractText } from './served-contract.js';

export const CONTRACT_URI = 'shortlink-mock://contract/openapi.yaml';
export const GUIDE_URI_PREFIX = 'shortlink-mock://docs/';

const DOCS_DIR = join(PACKAGE_ROOT, 'docs');

/** The guides shipped with the package (none when docs/ is missing). */
function guideNames(): string[] {
  try {
    return readdirSync(DOCS_DIR).filter((name) => /^[a-z0-9-]+\.md$/.test(name)).sort();
  } catch {
    return [];
  }
}

export function registerResources(server: McpServer, client: AdminClient): void {
  server.registerResource('contract', CONTRACT_URI, { title: 'openapi.yaml', description: 'The contract the mock serves and judges every exchange by (its GET /openapi.yaml: a --contract FILE, else the shipped Short-Link Management API contract)', mimeType: 'application/yaml' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/yaml', text: await servedContractText(client) }],
  }));
  for (const name of guideNames()) {
    const uri = `${GUIDE_URI_PREFIX}${name}`;
    server.registerResource(`docs/${name}`, uri, { title: name, description: `The guide docs/${name}`, mimeType: 'text/markdown' }, (asked) => ({
      contents: [{ uri: asked.href, mimeType: 'text/markdown', text: readFileSync(join(DOCS_DIR, name), 'utf8') }],
    }));
  }
}
