// The refusing port the client tests rely on (test/helpers/refusing-port.ts): a connection there is
// refused at once, nothing can listen there while it is held, and after release() it is free again.
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

function listenError(port: number, host?: string): Promise<{ code: string; server: Server }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve({ code: error.code ?? error.message, server }));
    server.listen(port, host, () => resolve({ code: 'listening', server }));
  });
}

it('refuses connections, cannot be listened on while held, and is free after release()', async () => {
  const refusing = await holdRefusingPort();
  expect(refusing.url).toBe(`http://127.0.0.1:${refusing.port}`);
  expect(await connectError(refusing.port)).toBe('ECONNREFUSED');
  for (const host of ['127.0.0.1', undefined]) expect((await listenError(refusing.port, host)).code).toBe('EADDRINUSE');
  await refusing.release();
  const { code, server } = await listenError(refusing.port, '127.0.0.1');
  expect(code).toBe('listening');
  await new Promise((resolve) => server.close(resolve));
});
