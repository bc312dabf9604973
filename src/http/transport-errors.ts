// Requests that never reach Express: Node's HTTP parser refuses them (a malformed request line or
// header, headers over the size limit, a request that took too long to arrive) or Node answers them
// itself (an Expect other than 100-continue). Left alone, Node answers these with an empty body;
// here they get the same Error object as everything else, and the connection is closed, as Node
// would. None is an operation of the contract: these statuses are the transport's, listed in the README.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from '../core/api-types.js';

interface ParserRefusal {
  status: number;
  reason: string;
  errorDescription: string;
}

const REFUSALS: Record<string, ParserRefusal> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', errorDescription: 'the request headers are over the 16 KiB limit' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, reason: 'Content Too Large', errorDescription: 'the request body has chunk extensions over the size limit' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', errorDescription: 'the request did not arrive in time' },
};

const malformed = (error: Error & { code?: string }): ParserRefusal => ({
  status: 400,
  reason: 'Bad Request',
  errorDescription: `the request is not valid HTTP/1.1 (${error.code ?? 'parse error'}: ${error.message.replace(/[^\x20-\x7e]/g, '?')})`,
});

export function answerTransportErrors(server: Server): void {
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    // Nothing to answer: the client went away, or an answer has already started.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
      socket.destroy();
      return;
    }
    const refusal = (error.code && REFUSALS[error.code]) || malformed(error);
    const body = JSON.stringify({ errorDescription: refusal.errorDescription } satisfies ErrorBody);
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const expectation = String(req.headers.expect).slice(0, 100);
    const body = JSON.stringify({ errorDescription: `Expect: ${expectation} is not supported; only Expect: 100-continue is` } satisfies ErrorBody);
    res
      .writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' })
      .end(body);
  });
}
