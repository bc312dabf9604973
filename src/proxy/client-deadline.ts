// How long a client has to take a proxied answer: --proxy-timeout, the same time the upstream has
// to give it. An exchange keeps its slot (exchange-slots.ts) and the answer's memory until the
// answer is out of the process: its 'close', which comes once the last byte is in the kernel's send
// buffer ('finish') or the connection is gone. A client that never reads never gets there: with
// 15 MiB answers, 8 such clients held every slot of the default --proxy-concurrency and every other
// client got a 502 for as long as they stayed. Past the time, the connection is reset (not closed
// gracefully: the answer still queued in the kernel is dropped, not left there), which closes the
// response, frees the slot and gives the answer's buffer back.
import type { Response } from 'express';

/**
 * Starts the client's clock as its answer is handed over: `late` is called and the connection reset
 * when the whole answer has not left the process within `ms`. Nothing happens once it has.
 */
export function takeWithin(res: Response, ms: number, late: () => void): void {
  const timer = setTimeout(() => {
    late();
    try {
      res.socket?.resetAndDestroy();
    } finally {
      // No socket left, or not a TCP one (resetAndDestroy throws for others): closed all the same.
      res.destroy();
    }
  }, ms);
  // A stopping mock closes its connections itself: this clock does not keep the process alive.
  timer.unref();
  res.once('close', () => clearTimeout(timer));
}
