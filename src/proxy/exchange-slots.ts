// How many exchanges with the upstream the proxy carries at once (--proxy-concurrency). Each one
// may hold an answer of up to 16 MiB (and its decoded text) from the moment it is read until the
// client has taken it, and an upstream socket while it waits: without a bound, 80 clients asking for
// large answers held 1.4 GB and 1,000 requests to a hung upstream held 2,000 file descriptors.
// An exchange past the bound waits its turn, first come first served, within its own
// --proxy-timeout; past MAX_WAITING_PER_SLOT waiting per slot it is refused at once: a queue that
// grows without end would only move the same descriptors from the upstream side to the client's.
// A refusal is a reason, which the proxy answers as its 502 Error object.

/**
 * Measured with 80 clients asking at once for 16 MiB answers (test/reliability/hostile-proxy.test.ts,
 * 2 cores): the mock's resident memory grew 291 MiB with 8 slots, 404 with 16, 598 with 32; small
 * answers from an upstream taking 20 ms went through at 250, 283 and 663 req/s, noisy, the mock's
 * own CPU being the limit. 8 keeps a hostile upstream's cost low; raise it for a slow upstream.
 */
export const DEFAULT_PROXY_CONCURRENCY = 8;
export const MAX_PROXY_CONCURRENCY = 1024;
export const MAX_WAITING_PER_SLOT = 16;

/** Gives the slot back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
}

export class ExchangeSlots {
  private inFlight = 0;
  private readonly waiting: Waiter[] = [];

  constructor(readonly limit: number = DEFAULT_PROXY_CONCURRENCY) {}

  get maxWaiting(): number {
    return this.limit * MAX_WAITING_PER_SLOT;
  }

  /** True when an acquire now would wait its turn (every slot in flight). */
  get full(): boolean {
    return this.inFlight >= this.limit;
  }

  /** A slot, or why there is none: the queue is full, no slot freed within waitMs, or the client gave up. */
  acquire(waitMs: number, cancelled: AbortSignal): Promise<Release | { refused: string }> {
    if (this.inFlight < this.limit) return Promise.resolve(this.take());
    if (this.waiting.length >= this.maxWaiting) return Promise.resolve({ refused: `${this.busy()} and ${this.maxWaiting} more wait their turn: this one is refused rather than queued` });
    return new Promise((resolve) => {
      const leave = (outcome: Release | { refused: string }): void => {
        clearTimeout(timer);
        cancelled.removeEventListener('abort', gaveUp);
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        resolve(outcome);
      };
      const waiter: Waiter = { grant: (release) => leave(release) };
      const timer = setTimeout(() => leave({ refused: `no slot freed within ${waitMs} ms (--proxy-timeout): ${this.busy()}` }), waitMs);
      const gaveUp = (): void => leave({ refused: 'the client gave up while waiting its turn' });
      cancelled.addEventListener('abort', gaveUp, { once: true });
      this.waiting.push(waiter);
    });
  }

  private busy(): string {
    return `${this.limit} exchanges with the upstream are in flight (--proxy-concurrency ${this.limit})`;
  }

  private take(): Release {
    this.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // Handed straight to the next in line: the count does not change.
      if (next) next.grant(this.handOver());
      else this.inFlight -= 1;
    };
  }

  /** The slot just given back, now the next waiter's (counted once, as when it was first taken). */
  private handOver(): Release {
    this.inFlight -= 1;
    return this.take();
  }
}
