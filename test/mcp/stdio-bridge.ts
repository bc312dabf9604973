// The conformance suite's server checks speak Streamable HTTP only (`conformance server --url`):
// to run them against `shortlink-mock mcp` over stdio, this bridge passes the JSON-RPC messages of
// every HTTP session (each scenario's client initializes one) to one `shortlink-mock mcp
// --base-url MOCK` process and its answers back, changing only the request ids (sessions each
// count from 0; the stdio server sees one id space). It answers nothing itself: every answer is the
// stdio server's (the SDK's transports do only the framing). What the HTTP side does (sessions,
// the Host check) is the bridge's, so the suite's transport checks say nothing here.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CLI } from '../helpers/cli-process.js';

export interface StdioBridge {
  /** Its endpoint: http://127.0.0.1:PORT/mcp */
  url: string;
  /** Requests passed to the stdio server. */
  passed: () => number;
  close: () => Promise<void>;
}

type Message = Parameters<StreamableHTTPServerTransport['send']>[0];

export async function stdioBridge(mockUrl: string): Promise<StdioBridge> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const stdio = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--base-url', mockUrl], stderr: 'ignore' });
  /** The stdio server's request id → the session and the id its client gave. */
  const pending = new Map<number, { front: StreamableHTTPServerTransport; id: string | number }>();
  let passed = 0;
  stdio.onmessage = (message) => {
    // Answers go back to the session that asked; the stdio server sends no requests or notifications of its own.
    if (!('id' in message) || 'method' in message) return;
    const asked = pending.get(message.id as number);
    if (!asked) return;
    pending.delete(message.id as number);
    void asked.front.send({ ...message, id: asked.id } as Message);
  };
  await stdio.start();

  const openSession = async (): Promise<StreamableHTTPServerTransport> => {
    const front: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, front) });
    front.onmessage = (message) => {
      if (!('id' in message) || !('method' in message)) return void stdio.send(message);
      passed += 1;
      pending.set(passed, { front, id: message.id });
      void stdio.send({ ...message, id: passed });
    };
    await front.start();
    return front;
  };

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      void (async () => {
        const id = req.headers['mcp-session-id'];
        const known = typeof id === 'string' ? sessions.get(id) : undefined;
        const parsed = body === '' ? undefined : (JSON.parse(body) as unknown);
        const isInitialize = typeof parsed === 'object' && parsed !== null && (parsed as { method?: string }).method === 'initialize';
        const front = known ?? (isInitialize ? await openSession() : undefined);
        if (!front) {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no such session' }, id: null }));
          return;
        }
        await front.handleRequest(req, res, parsed);
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    passed: () => passed,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await stdio.close();
    },
  };
}
