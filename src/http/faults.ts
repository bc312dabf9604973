// Network faults, done to the real socket so that a client sees exactly what a broken network or
// server gives it.
import type { Request, Response } from 'express';
import type { Fault } from '../core/scenarios.js';

/** `no-response` holds the connection until the client gives up, but never longer than this. */
export const NO_RESPONSE_LIMIT_MS = 10 * 60_000;

export function applyFault(fault: Fault, req: Request, res: Response): void {
  res.locals['fault'] = fault;
  const socket = req.socket;
  switch (fault) {
    case 'connection-reset':
      socket.resetAndDestroy(); // TCP RST: the client sees ECONNRESET
      return;
    case 'empty-response':
      socket.end(); // FIN without a byte: "empty reply from server" / "socket hang up"
      return;
    case 'no-response': {
      const timer = setTimeout(() => socket.destroy(), NO_RESPONSE_LIMIT_MS);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
      return;
    }
  }
}
