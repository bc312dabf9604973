// The tools that read the mock: what it is (mock_info), what a client sent and how the contract
// judged it (journal), which documented outcomes a client has met (coverage), and the proxy's
// drift report (drift). Each answer is bounded: the journal by count and bytes, saying when it cut.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { Account, JournalEntry } from '../admin-types.js';
import { MCP_JOURNAL_MAX_BYTES, MCP_JOURNAL_MAX_ENTRIES } from './limits.js';
import { servedContractInfo } from './served-contract.js';
import { jsonAnswer, runTool, toolError, type ToolTarget } from './tool-target.js';
import { apiKeyField } from './tools-state.js';

interface ScenarioList {
  active: string | null;
  scenarios: Array<{ name: string; description: string; active: boolean }>;
}

export function registerReadTools(server: McpServer, target: ToolTarget): void {
  const { control, client } = target;
  server.registerTool('mock_info', { description: "The mock's base URL, the title and version of the contract it serves, the demo API keys and their accounts, the scenarios with descriptions, and whether variety or a proxy is on.", inputSchema: {} }, () =>
    runTool(target, 'mock_info', async () => {
      const [health, scenarios, { accounts }, variety, contract] = await Promise.all([control.health(), client.call<ScenarioList>('GET', '/scenarios'), client.call<{ accounts: Account[] }>('GET', '/accounts'), control.variety(), servedContractInfo(client)]);
      const demoKeys = new Set<string>(Object.values(control.apiKeys));
      return jsonAnswer({
        baseUrl: control.url,
        contract,
        mock: { version: health.version, accounts: health.accounts, links: health.links },
        demoAccounts: accounts.filter((account) => demoKeys.has(account.apiKey)),
        scenarios: { active: scenarios.active, available: scenarios.scenarios.map(({ name, description, active }) => ({ name, description, active })) },
        variety,
        proxy: target.proxy ?? 'unknown: a mock driven by --base-url does not say (the drift tool reads its report)',
      });
    }),
  );
  server.registerTool(
    'journal',
    {
      description: `The newest API requests the mock received, newest first, each with the request, the answer, the contract's verdict and the violations found. At most ${MCP_JOURNAL_MAX_ENTRIES} entries and ${MCP_JOURNAL_MAX_BYTES / 1024} KiB per call; the answer says when it cut.`,
      inputSchema: {
        apiKey: apiKeyField.optional().describe("Only this key's requests"),
        operationId: z.string().min(1).max(200).optional().describe('Only this operation (e.g. createLink)'),
        status: z.number().int().min(100).max(599).optional(),
        limit: z.number().int().min(1).optional().describe(`How many (default 20, at most ${MCP_JOURNAL_MAX_ENTRIES})`),
      },
    },
    ({ apiKey, operationId, status, limit }) =>
      runTool(target, 'journal', async () => {
        const wanted = Math.min(limit ?? 20, MCP_JOURNAL_MAX_ENTRIES);
        // One more than asked: whether older entries were left out.
        const filter = { ...(apiKey === undefined ? {} : { account: apiKey }), ...(operationId === undefined ? {} : { operation: operationId }), ...(status === undefined ? {} : { status }), limit: wanted + 1 };
        const entries = await control.journal(filter);
        return jsonAnswer(boundedJournal(entries, wanted, limit));
      }),
  );
  server.registerTool('coverage', { description: "Which documented outcomes (operation, status, error code) a key's client has met and which not; every key's without apiKey.", inputSchema: { apiKey: apiKeyField.optional() } }, ({ apiKey }) =>
    runTool(target, 'coverage', async () => jsonAnswer(await control.coverage(apiKey))),
  );
  server.registerTool('drift', { description: "The validating proxy's (--proxy) distinct contract violations, grouped by operation and status, each with one example; an error when the mock is not a proxy.", inputSchema: {} }, () =>
    runTool(target, 'drift', async () => {
      if (target.proxy === false) return toolError('drift: not a proxy: this mock answers from its own state (start it with --proxy URL to judge a real server), so it has no drift report');
      return jsonAnswer(await control.violations());
    }),
  );
}

/** The newest `wanted` of `entries` (oldest first, as the admin API lists them), newest first, within MCP_JOURNAL_MAX_BYTES. */
export function boundedJournal(entries: readonly JournalEntry[], wanted: number, asked: number | undefined): { entries: JournalEntry[]; cut?: string } {
  const newest = entries.slice(-wanted).reverse();
  const kept: JournalEntry[] = [];
  let bytes = 0;
  for (const entry of newest) {
    const size = Buffer.byteLength(JSON.stringify(entry));
    if (bytes + size > MCP_JOURNAL_MAX_BYTES) break;
    bytes += size;
    kept.push(entry);
  }
  const cuts: string[] = [];
  if (asked !== undefined && asked > MCP_JOURNAL_MAX_ENTRIES) cuts.push(`asked ${asked}, at most ${MCP_JOURNAL_MAX_ENTRIES} entries are returned per call`);
  if (kept.length < newest.length) cuts.push(`${newest.length - kept.length} older entries left out to stay within ${MCP_JOURNAL_MAX_BYTES} bytes`);
  else if (entries.length > wanted) cuts.push('older entries exist: narrow by apiKey, operationId or status');
  return cuts.length === 0 ? { entries: kept } : { entries: kept, cut: cuts.join('; ') };
}
