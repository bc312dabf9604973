// A body parser for clients that half-close: one that sends a whole request and then its FIN ("done
// sending", still reading). body-parser skips a request it takes for finished, and on-finished
// counts a request as finished once its socket no longer reads, which a half-close also causes,
// though the body still waits, unread, in the request (on-finished's isFinished; the same check as
// expressjs/body-parser#608). When the mock parses after an asynchronous step (every request on
// Redis: the key is looked up first), the FIN has come by then, and the body would be dropped: a
// 400 "no body" for a request that had one. For such a request the socket reads as readable again
// during the parser's synchronous check only, and as it is before anything else runs.
import type { RequestHandler } from 'express';

export function parseAfterHalfClose(parse: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const socket = req.socket;
    // Not half-closed, or the body did not all arrive (Node refuses that request itself), or it was read.
    if (socket.readable || !req.complete || !req.readable) {
      parse(req, res, next);
      return;
    }
    let restored = false;
    const restore = (): void => {
      if (restored) return;
      restored = true;
      delete (socket as { readable?: boolean }).readable; // back to the stream's own getter
    };
    Object.defineProperty(socket, 'readable', { value: true, configurable: true });
    try {
      parse(req, res, (error?: unknown) => {
        restore();
        next(error);
      });
    } finally {
      restore();
    }
  };
}
