// Redis traffic states for tests: as many instances as a test wants on one Redis and prefix, each
// with a client (a connection) of its own, as separate processes would have; all closed after it.
import { createClient } from 'redis';
import { createTrafficState } from '../../src/store/create-traffic-state.js';
import type { TrafficState } from '../../src/core/traffic-state.js';

export interface TrafficInstance {
  state: TrafficState;
  client: ReturnType<typeof createClient>;
  /** What the state logged. */
  lines: string[];
}

export class RedisTrafficStates {
  private readonly opened: TrafficInstance[] = [];

  async open(url: string, prefix: string, journalSize = 1000): Promise<TrafficInstance> {
    // Reconnects quickly, so a test of Redis coming back does not wait out node-redis's backoff.
    const client = createClient({ url, disableOfflineQueue: true, socket: { connectTimeout: 5_000, reconnectStrategy: () => 50 } });
    const lines: string[] = [];
    client.on('error', () => undefined);
    await client.connect();
    const state = createTrafficState({ kind: 'redis', client, prefix, journalSize, log: (line) => lines.push(line) });
    const instance = { state, client, lines };
    this.opened.push(instance);
    return instance;
  }

  async closeAll(): Promise<void> {
    await Promise.all(
      this.opened.splice(0).map(async ({ state, client }) => {
        await state.close();
        client.destroy();
      }),
    );
  }
}
