// The documents an agent reads beside the tools: the contract (openapi.yaml) and the guides under
// docs/, each by a fixed URI, read from the package's own files when asked.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CONTRACT_FILE, PACKAGE_ROOT } from '../../contract/package-root.js';

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

export function registerResources(server: McpServer): void {
  server.registerResource('contract', CONTRACT_URI, { title: 'openapi.yaml', description: 'The Short-Link Management API contract the mock serves and judges every exchange by', mimeType: 'application/yaml' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/yaml', text: readFileSync(CONTRACT_FILE, 'utf8') }],
  }));
  for (const name of guideNames()) {
    const uri = `${GUIDE_URI_PREFIX}${name}`;
    server.registerResource(`docs/${name}`, uri, { title: name, description: `The guide docs/${name}`, mimeType: 'text/markdown' }, (asked) => ({
      contents: [{ uri: asked.href, mimeType: 'text/markdown', text: readFileSync(join(DOCS_DIR, name), 'utf8') }],
    }));
  }
}
