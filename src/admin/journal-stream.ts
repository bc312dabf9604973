// GET /__admin/requests/stream: the journal as server-sent events, one `entry` event per request.
// A client that reads slower than the mock answers (or not at all) must not make the mock hold its
// backlog: at most MAX_BUFFERED_BYTES wait in the response's buffer; entries beyond that are
// dropped and counted, and as soon as the client catches up it gets a `dropped` event with the count
// (the console then reloads the list). A client so far behind that DROPS_BEFORE_CLOSE entries in a
// row were dropped is gone in all but name: its stream is closed.
// Together, the streams hold at most MAX_TOTAL_BUFFERED_BYTES (400 streams that never read held
// 1.15 GB): once they do, a stream holding more than its fair share of that (the total over the
// number of streams) is closed at its next entry, and its memory freed; one that keeps up is not. The console's
// EventSource reconnects and reloads the list. Each entry is serialised once for all streams.
// Each stream closed for being slow is reset, not ended: a graceful close leaves what the kernel
// already queued for it (megabytes a stream) in the kernel until the client reads it, which a client
// that never reads never does (400 of them held 1.12 GB there, issue 37 A3). And at most MAX_STREAMS
// are open at once: past it a request is a 503 Error object, until one closes.
// The journal may be shared by several instances (src/core/traffic-state.ts): its `entry` events
// are every instance's entries, and `: connected` is sent once every later entry will arrive.
import type { Socket } from 'node:net';
import type { Request, Response } from 'express';
import { errors } from '../core/errors.js';
import type { JournalEntry } from '../core/journal.js';
import type { JournalStore } from '../core/traffic-state.js';

export const MAX_BUFFERED_BYTES = 1024 * 1024;
export const MAX_TOTAL_BUFFERED_BYTES = 16 * 1024 * 1024;
export const DROPS_BEFORE_CLOSE = 10_000;
/** Journal streams open at once, per mock: each may buffer MAX_BUFFERED_BYTES, and each holds a socket. */
export const MAX_STREAMS = 64;
const HEARTBEAT_MS = 15_000;

/** What every open stream holds, kept up to date as each is written to (every entry goes to every stream). */
export class StreamBudget {
  private readonly held = new Map<Response, number>();
  private sum = 0;
  private last: { entry: JournalEntry; frame: string } | undefined;

  constructor(
    readonly limit = MAX_TOTAL_BUFFERED_BYTES,
    readonly maxStreams = MAX_STREAMS,
  ) {}

  /**
   * The stream's buffer as it is now; false when the streams together are at the limit and this
   * one holds more than its fair share of it (a stream that keeps up holds next to nothing).
   */
  refresh(res: Response): boolean {
    this.sum += res.writableLength - (this.held.get(res) ?? 0);
    this.held.set(res, res.writableLength);
    return this.sum < this.limit || res.writableLength < this.limit / this.held.size;
  }

  /** Counts a new stream in, or refuses it (a 503) when MAX_STREAMS are open. */
  admit(res: Response): void {
    if (this.held.size >= this.maxStreams) throw errors.tooManyStreams(this.maxStreams);
    this.held.set(res, 0);
  }

  forget(res: Response): void {
    this.sum -= this.held.get(res) ?? 0;
    this.held.delete(res);
  }

  /** The entry's event, serialised once for every stream. */
  frame(entry: JournalEntry): string {
    if (this.last?.entry !== entry) this.last = { entry, frame: `event: entry\ndata: ${JSON.stringify(entry)}\n\n` };
    return this.last.frame;
  }
}

export function streamJournal(journal: JournalStore, req: Request, res: Response, budget: StreamBudget = new StreamBudget()): void {
  budget.admit(res);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let dropped = 0;
  const reportDropped = (): void => {
    if (dropped === 0 || res.writableLength >= MAX_BUFFERED_BYTES) return;
    res.write(`event: dropped\ndata: ${JSON.stringify({ dropped })}\n\n`);
    dropped = 0;
  };
  const send = (entry: JournalEntry): void => {
    if (!budget.refresh(res)) return resetStream(res);
    if (res.writableLength >= MAX_BUFFERED_BYTES) {
      if (++dropped >= DROPS_BEFORE_CLOSE) resetStream(res);
      return;
    }
    reportDropped();
    res.write(budget.frame(entry));
    budget.refresh(res);
  };
  // Entries a shared journal lost before this instance heard them: a gap like the client's own.
  const skipped = (count: number): void => {
    dropped += count;
    reportDropped();
  };
  // The client caught up: it hears about the gap now, not only with the next entry.
  res.on('drain', () => {
    budget.refresh(res);
    reportDropped();
  });
  // A comment now and then keeps proxies and idle timeouts from closing a quiet stream.
  const heartbeat = setInterval(() => res.writableLength < MAX_BUFFERED_BYTES && res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  journal.on('entry', send);
  journal.on('dropped', skipped);
  void journal.listening().then(() => {
    if (!res.destroyed) res.write(': connected\n\n');
  });
  const stop = (): void => {
    budget.forget(res);
    clearInterval(heartbeat);
    journal.off('entry', send);
    journal.off('dropped', skipped);
  };
  req.on('close', stop);
  res.on('close', stop);
}

/**
 * Closes a stream with a TCP reset: what its socket had queued, in Node and in the kernel, is
 * dropped at once rather than kept until a client that does not read takes it. The response is
 * destroyed as well (a socket without a TCP handle cannot be reset; destroying it is what is left).
 */
function resetStream(res: Response): void {
  const socket = res.socket as (Socket & { resetAndDestroy?: () => Socket }) | null;
  try {
    socket?.resetAndDestroy?.();
  } catch {
    // Not a TCP socket (a test's duplex, a pipe): destroyed below.
  }
  res.destroy();
}
