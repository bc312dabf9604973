// The /__admin/mcp handler a mock mounts: the SDK and the tools are loaded on its first request,
// so a mock start (and every API request) pays nothing for them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpEndpointOptions, McpHandler } from './http-endpoint.js';

export function lazyMcpEndpoint(options: McpEndpointOptions): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void {
  let handler: Promise<McpHandler> | undefined;
  return (req, res, next) => {
    handler ??= import('./http-endpoint.js').then(({ mcpEndpoint }) => mcpEndpoint(options));
    handler.then((handle) => handle(req, res)).catch(next);
  };
}
