// /__admin/mcp: the MCP server over Streamable HTTP, inside a running mock, mounted by the admin
// router after its guards (token, host allow-list, browser origin check). Stateless (no session):
// each POST is one exchange of JSON-RPC messages answered as JSON, by a server made for it; the
// tools reach the mock through its own admin API on the address the request came in on, exactly
// as the stdio server drives a mock, and the bound of concurrent tool calls holds across requests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AdminClient } from '../admin-client.js';
import { CallLimiter, MCP_MAX_MESSAGE_BYTES } from './limits.js';
import { checkingParams } from './params-check.js';
import { createMcpServer } from './server.js';
import { toolTarget } from './tool-target.js';

export interface McpEndpointOptions {
  /** The mock's --admin-token: the tools' admin calls send it. */
  adminToken?: string | undefined;
  /** Whether the mock is a validating proxy (--proxy). */
  proxy: boolean;
}

export type McpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function mcpEndpoint(options: McpEndpointOptions): McpHandler {
  const limiter = new CallLimiter();
  return async (req, res) => {
    // Stateless: no stream to open with GET, no session to end with DELETE.
    if (req.method !== 'POST') return refuse(res, 405, `${req.method} is not served: /__admin/mcp is stateless, send each JSON-RPC message with POST`);
    const client = new AdminClient(ownAddress(req), { adminToken: options.adminToken });
    const server = createMcpServer(toolTarget(client, options.proxy, limiter));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MCP_MAX_MESSAGE_BYTES });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(checkingParams(transport));
    await transport.handleRequest(req, res);
  };
}

/** The mock itself, on the local address and port this request reached (loopback for a request from this machine). */
function ownAddress(req: IncomingMessage): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(status === 405 ? { allow: 'POST' } : {}) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
