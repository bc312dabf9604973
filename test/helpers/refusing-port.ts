// A port on 127.0.0.1 that refuses connections, for the tests of what a client says when nothing
// answers. Taking a port from the OS and letting it go leaves a race: any server the suite starts
// meanwhile (its files run in parallel, each listening on port 0) may be handed that port, and a
// client then meets a server that never answers it. One run (26 Nov 2026) saw
// upstream-failures.test.ts wait out the proxy's 10 s timeout that way instead of ECONNREFUSED.
// Here the port stays held by the client end of a loopback connection of ours: nothing listens on
// it, so a connection there is refused at once, and no one else can bind it (EADDRINUSE, and
// port 0 passes it over) until release().
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface RefusingPort {
  port: number;
  url: string;
  release(): Promise<void>;
}

export async function holdRefusingPort(): Promise<RefusingPort> {
  const held: Socket[] = [];
  const server = createServer((accepted) => void held.push(accepted));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => client.once('connect', resolve).once('error', reject));
  // A reset when release() closes the other end is the end asked for, not a failure.
  client.on('error', () => undefined);
  const port = client.localPort ?? 0;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    // The accepted end closes first, so that the TIME_WAIT falls on the server's port and the held
    // one is free again at once (the client end, told by its peer, ends of itself).
    release: async () => {
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      if (held.length === 0) client.destroy();
      for (const socket of held) socket.destroy();
      await closed;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
