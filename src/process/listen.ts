// Listening: the mock's HTTP server (src/http/server.ts, loaded only now) made and listening on the
// configured host and port, or a StartupError saying why not and what to do about it. A mock that
// cannot listen releases its store.
import type { Server } from 'node:http';
import { asGiven, type Config } from './config.js';
import type { Mock } from './mock.js';
import { StartupError } from './startup-error.js';

/** A mock that cannot listen releases its store: in a test process nothing may stay open. */
export async function listenOrClose(mock: Mock, config: Config, swappable: boolean): Promise<Server> {
  try {
    return await listen(mock, config, swappable);
  } catch (error) {
    await mock.close();
    throw error;
  }
}

/** `swappable`: each request is handed to the app of the contract served when it arrives (one property read), not to the first app. */
async function listen(mock: Mock, config: Config, swappable: boolean): Promise<Server> {
  const { createHttpServer } = await import('../http/server.js');
  const timeouts = { headersTimeoutMs: config.headersTimeoutMs, requestTimeoutMs: config.requestTimeoutMs };
  return new Promise((resolveServer, reject) => {
    const server = createHttpServer(mock.app, timeouts, swappable ? (req, res) => mock.app(req, res) : undefined).listen(config.port, config.host);
    server.once('listening', () => resolveServer(server));
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, config)));
  });
}

/** Why the server could not listen, with what to do about it, naming where the port or host came from. */
export function listenError(error: NodeJS.ErrnoException, config: Config): StartupError {
  const port = config.sources['port'] ? asGiven(config, 'port', config.port) : `port ${config.port} (the default)`;
  if (error.code === 'EADDRINUSE') {
    return new StartupError(`cannot listen on ${config.host}: ${port} is already in use; pick another with --port N, or --port 0 for a free one (the banner and --ready-file say which)`);
  }
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return new StartupError(`cannot listen on ${asGiven(config, 'host', config.host)}: not an address of this machine (${error.code})`);
  }
  return new StartupError(`cannot listen on ${config.host} with ${port}: ${error.code ?? error.message}`);
}
