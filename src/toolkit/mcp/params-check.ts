// Requests with params their method's schema refuses are answered -32602 Invalid params in one
// line. The SDK (1.32.2) parses a request's params with its own schema only inside the handler it
// registered, and answers a failure -32603 Internal error with the whole ZodError as the message
// (modelcontextprotocol/typescript-sdk#2284, open): a client sending `"arguments": "notanobject"`
// is told the server broke. So a transport is wrapped: each request of a method this server
// answers is checked first against the SDK's own schema for it; a refused one is answered here
// and never reaches the server, and everything else passes untouched, both ways.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { ZodType } from 'zod';

/** The methods this server answers (createMcpServer: tools and resources), each with the schema the SDK parses it with. */
const REQUEST_SCHEMAS = new Map<string, ZodType>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['resources/list', ListResourcesRequestSchema],
  ['resources/templates/list', ListResourceTemplatesRequestSchema],
  ['resources/read', ReadResourceRequestSchema],
]);

/** The refusal of a request whose params its method's schema refuses, or undefined when they pass (or the method is not one of ours: the server answers it). */
export function invalidParams(request: JSONRPCRequest): JSONRPCErrorResponse | undefined {
  const parsed = REQUEST_SCHEMAS.get(request.method)?.safeParse(request);
  if (parsed === undefined || parsed.success) return undefined;
  // The first problem, where it is: `params.arguments: Invalid input: expected record, received string`.
  const [issue] = parsed.error.issues;
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${request.method}: ${where}${issue?.message ?? 'refused'}` } };
}

/** `transport` with requests of refused params answered -32602 before the server sees them. */
export function checkingParams(transport: Transport): Transport {
  const checked: Transport = {
    start: () => transport.start(),
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
    get sessionId() {
      return transport.sessionId;
    },
    setProtocolVersion: (version) => transport.setProtocolVersion?.(version),
  };
  transport.onclose = () => checked.onclose?.();
  transport.onerror = (error) => checked.onerror?.(error);
  transport.onmessage = (message, extra) => {
    const refusal = isJSONRPCRequest(message) ? invalidParams(message) : undefined;
    if (refusal === undefined) return checked.onmessage?.(message, extra);
    transport.send(refusal).catch((error: unknown) => checked.onerror?.(error as Error));
  };
  return checked;
}
