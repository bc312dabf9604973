// The MCP server of a mock: McpServer from the official SDK with one tool per ability and the
// documents as resources. The transport (stdio, Streamable HTTP) is chosen by the caller.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { packageVersion } from '../../contract/package-root.js';
import { registerResources } from './resources.js';
import type { ToolTarget } from './tool-target.js';
import { registerContractTool } from './tools-contract.js';
import { registerReadTools } from './tools-read.js';
import { registerStateTools } from './tools-state.js';

export { toolTarget, type ToolTarget } from './tool-target.js';

const INSTRUCTIONS = [
  'Drives a shortlink-mock: a stateful mock of the Short-Link Management API that validates every exchange against its contract (openapi.yaml).',
  'Start with mock_info (base URL, demo API keys, scenarios). Force an error path with use_scenario, then read what your client sent and how the contract judged it with journal.',
].join(' ');

export function createMcpServer(target: ToolTarget): McpServer {
  const server = new McpServer({ name: 'shortlink-mock', version: packageVersion() }, { instructions: INSTRUCTIONS });
  registerReadTools(server, target);
  registerStateTools(server, target);
  registerContractTool(server, target);
  registerResources(server, target.client);
  return server;
}
