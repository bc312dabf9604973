// What the Redis store's connection knows of Redis being there, from its client's events: why Redis
// is unreachable (for the messages of the calls that fail meanwhile), one log line when it goes and
// one when it is back, and the listeners told when it is back (the store reloads what it keeps).
import type { RedisClientType } from 'redis';
import { describeError } from './redis-client.js';

export class RedisHealthWatch {
  /** Why Redis is unreachable, while it is. */
  lastProblem: string | undefined;
  private down = false;
  /** Before the first ready, a failure is the start's to report (redis-start.ts: one line, then exit), not an outage. */
  private wasReady = false;
  private readonly backListeners: Array<() => void> = [];

  /** Watches `client` from now on; `ready` runs each time it is ready, the first time included. */
  constructor(client: RedisClientType, location: string, log: ((line: string) => void) | undefined, ready: () => void) {
    client.on('error', (error: unknown) => {
      this.lastProblem = describeError(error);
      if (this.down || !this.wasReady || !client.isOpen) return;
      this.down = true;
      log?.(`Redis at ${location} is unavailable (${this.lastProblem}); reconnecting`);
    });
    client.on('ready', () => {
      const wasDown = this.down;
      this.down = false;
      this.wasReady = true;
      this.lastProblem = undefined;
      ready();
      if (!wasDown) return;
      log?.(`Redis at ${location} is back`);
      for (const listener of this.backListeners) listener();
    });
  }

  /** Calls `listener` each time the connection is ready again after Redis went away. */
  onBack(listener: () => void): void {
    this.backListeners.push(listener);
  }
}
