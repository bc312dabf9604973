// The refusing port the client tests rely on (test/helpers/refusing-port.ts): a connection there is
// refused at once, and nothing can listen there while it is held. Whether the port is free again
// at once after release() is not asked: a parallel file may be handed it, and the connection's
// last packets may still hold it for a moment (one run in six saw EADDRINUSE right after).
import { connect, createServer, type Server } from 'node:net';
import { expect, it } from 'vitest';
import { holdRefusingPort } from '../helpers/refusing-port.js';

function connectError(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** The error of a listen on `port`; 'listening' (and the server closed again) when it succeeds. */
function listenError(port: number, host?: string): Promise<string> {
  return new Promise((resolve) => {
    const server: Server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen(port, host, () => server.close(() => resolve('listening')));
  });
}

it('refuses connections and cannot be listened on while held', async () => {
  const refusing = await holdRefusingPort();
  expect(refusing.url).toBe(`http://127.0.0.1:${refusing.port}`);
  expect(await connectError(refusing.port)).toBe('ECONNREFUSED');
  for (const host of ['127.0.0.1', undefined]) expect(await listenError(refusing.port, host)).toBe('EADDRINUSE');
  await refusing.release();
});
