// What every tool works with: the mock it drives, reached only through the admin client (so the
// same tools serve stdio, driving a mock of its own or a remote one, and /__admin/mcp inside a
// mock), and how a tool's outcome becomes an MCP answer: a JSON text, or a tool error (isError)
// carrying the mock's own message.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AdminApiError, type AdminClient } from '../admin-client.js';
import { controlOf, type MockControl } from '../control.js';
import { CallLimiter } from './limits.js';

export interface ToolTarget {
  client: AdminClient;
  control: MockControl;
  /** Whether the mock is a validating proxy: known for a mock this process started or serves, undefined for one driven by --base-url. */
  proxy: boolean | undefined;
  /** Shared by every server over this target: the bound of concurrent calls holds across HTTP requests. */
  limiter: CallLimiter;
}

export function toolTarget(client: AdminClient, proxy: boolean | undefined, limiter = new CallLimiter()): ToolTarget {
  return { client, control: controlOf(client), proxy, limiter };
}

/** A tool's answer: its value as JSON text. */
export function jsonAnswer(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

/** A tool error: the agent reads the message, the server goes on. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Runs one tool call within the concurrency bound; whatever it throws is a tool error: the mock's
 * refusal as the mock worded it (an unknown scenario's did-you-mean), an unreachable mock as the
 * address and the reason.
 */
export async function runTool(target: ToolTarget, name: string, call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    const result = await target.limiter.run(call);
    return result ?? toolError(`${name}: refused, ${target.limiter.max} tool calls are already running (the most this server runs at once); call again when one has answered`);
  } catch (error) {
    if (error instanceof AdminApiError) return toolError(`${name}: ${error.status === 0 ? 'the mock did not answer' : `the mock answered ${error.status}`}: ${error.errorDescription}${error.code ? ` (${error.code})` : ''}`);
    return toolError(`${name}: ${(error as Error)?.message ?? String(error)}`);
  }
}
