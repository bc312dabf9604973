// Runs the server checks of @modelcontextprotocol/conformance (a devDependency, pinned) against an
// MCP endpoint, with test/mcp/conformance-baseline.yml as its expected failures. The package needs
// Node 22 or later (it imports fs.globSync): under an older Node the pinned Node 22 binary of
// `npm run test:node-lines` is used, fetched from the npm registry into its cache when missing
// (test/node-lines/fetch-node.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { pinnedNode } from '../node-lines/fetch-node.js';
import { NODE_PINS, nodeCacheRoot } from '../node-lines/pins.js';

export const CONFORMANCE_CLI = join(PACKAGE_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
export const CONFORMANCE_BASELINE = join(PACKAGE_ROOT, 'test', 'mcp', 'conformance-baseline.yml');
/** The whole active suite takes about 3 s here; the bound is for a machine under load. */
const RUN_LIMIT_MS = 120_000;

/** A `node` of at least 22: this one, or the pinned 22 (fetched once, minutes at most). */
export function node22(log: (line: string) => void): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const pin = NODE_PINS.find((each) => each.line === 22);
  if (!pin) throw new Error('test/node-lines/pins.ts pins no Node 22');
  return join(pinnedNode(nodeCacheRoot(process.env), pin, log), 'node');
}

export interface ConformanceRun {
  code: number | null;
  output: string;
}

/**
 * The suite's checks of the HTTP transport itself. Through test/mcp/stdio-bridge.ts they judge the
 * bridge, not the stdio server: it keeps sessions (so server-sse-multiple-streams passes) and has no
 * Host check (so dns-rebinding-protection fails). For the stdio run they swap places in the baseline.
 */
const BRIDGE_PASSES = 'server-sse-multiple-streams';
const BRIDGE_FAILS = 'dns-rebinding-protection';

/** The baseline for one transport, written into `dir`: the file as it is for HTTP; for stdio with the bridge's two transport checks swapped. */
function baselineFor(transport: 'http' | 'stdio', dir: string): string {
  if (transport === 'http') return CONFORMANCE_BASELINE;
  const baseline = parse(readFileSync(CONFORMANCE_BASELINE, 'utf8')) as { server: string[] };
  const file = join(dir, 'stdio-baseline.yml');
  writeFileSync(file, stringify({ server: [...baseline.server.filter((name) => name !== BRIDGE_PASSES), BRIDGE_FAILS] }));
  return file;
}

/** `conformance server --url URL --expected-failures baseline`: its exit code (0: exactly the baseline failed) and its output. */
export function runConformance(node: string, url: string, transport: 'http' | 'stdio'): Promise<ConformanceRun> {
  const results = mkdtempSync(join(tmpdir(), 'slm-conformance-'));
  const args = [CONFORMANCE_CLI, 'server', '--url', url, '--expected-failures', baselineFor(transport, results), '--output-dir', results];
  return new Promise((resolve) => {
    execFile(node, args, { timeout: RUN_LIMIT_MS, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      rmSync(results, { recursive: true, force: true });
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** The summary lines of a run (`✓ name: …`, `✗ name: …`), for a readable failure. */
export function summary(output: string): string {
  const at = output.indexOf('=== SUMMARY ===');
  return at < 0 ? output.slice(-4000) : output.slice(at);
}
