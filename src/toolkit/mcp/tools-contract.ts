// check_contract: the contract suite (`shortlink-mock contract`, runContract) against any server,
// answered as the summary and every failure, each cut to a bounded length.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { whyUnreachable } from '../../contract/reachable.js';
import type { Report } from '../../contract/runner.js';
import { runContract } from '../run-contract.js';
import { MCP_FAILURE_REASON_CHARS, MCP_MAX_FAILURES, MCP_MAX_FUZZ_RUNS } from './limits.js';
import { jsonAnswer, runTool, toolError, type ToolTarget } from './tool-target.js';
import { apiKeyField } from './tools-state.js';

export function registerContractTool(server: McpServer, target: ToolTarget): void {
  server.registerTool(
    'check_contract',
    {
      description: "Runs the contract suite (shortlink-mock contract) against a server (this mock, your own implementation, a staging deployment): every documented status and rule checked, plus fuzzed requests. Answers the counts and every failure with its reason. Deletes the links it created.",
      inputSchema: {
        baseUrl: z.url({ protocol: /^https?$/ }).max(2000).describe('The server under test, e.g. http://127.0.0.1:4010'),
        apiKey: apiKeyField.describe('A key of an account with room for links'),
        otherApiKey: apiKeyField.optional().describe("A second account's key, for the isolation checks"),
        fuzzRuns: z.number().int().min(0).max(MCP_MAX_FUZZ_RUNS).optional().describe('Fuzzed requests (default 200; 0 for none)'),
      },
    },
    ({ baseUrl, apiKey, otherApiKey, fuzzRuns }) =>
      runTool(target, 'check_contract', async () => {
        // As `shortlink-mock contract` does: nothing listening is one error, not 41 failed checks.
        const unreachable = await whyUnreachable(baseUrl);
        if (unreachable) return toolError(`check_contract: cannot reach ${baseUrl}: ${unreachable}`);
        return jsonAnswer(contractSummary(await runContract({ baseUrl, apiKey, otherApiKey, ...(fuzzRuns === undefined ? {} : { fuzzRuns }) })));
      }),
  );
}

/** The counts, the seed to replay, and the failures (at most MCP_MAX_FAILURES, each reason cut). */
export function contractSummary(report: Report): Record<string, unknown> {
  const failed = report.results.flatMap((result) => (result.outcome.status === 'failed' ? [{ id: result.id, operationId: result.operationId, expectedStatus: result.expectedStatus, title: result.title, reason: cut(result.outcome.reason) }] : []));
  return {
    baseUrl: report.baseUrl,
    counts: report.counts,
    seed: report.seed,
    fuzzRuns: report.fuzzRuns,
    ms: Math.round(report.ms),
    failures: failed.slice(0, MCP_MAX_FAILURES),
    ...(failed.length > MCP_MAX_FAILURES ? { cut: `${failed.length - MCP_MAX_FAILURES} more failures not listed` } : {}),
    notChecked: report.results.flatMap((result) => (result.outcome.status === 'not-checked' ? [{ id: result.id, reason: cut(result.outcome.reason) }] : [])).slice(0, MCP_MAX_FAILURES),
  };
}

function cut(text: string): string {
  return text.length <= MCP_FAILURE_REASON_CHARS ? text : `${text.slice(0, MCP_FAILURE_REASON_CHARS)}… (${text.length - MCP_FAILURE_REASON_CHARS} more characters)`;
}
