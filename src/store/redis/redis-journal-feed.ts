// The live feed of the shared journal: every entry appended to the stream, through any instance,
// handed to `deliver` in stream order. XREAD BLOCK holds its connection until an entry comes, so
// the feed reads on a connection of its own (a duplicate of the client it is given), opened on
// start() and closed on stop(). It starts from the end of the stream as it is once connected, and
// follows the IDs it has read, so a lost connection loses nothing still in the stream when it is back.
// What the stream lost before the feed read it (trimmed in a burst longer than the stream keeps,
// or cleared) shows as a jump in seq, which the feed reports as that many entries dropped: the
// live stream's clients then hear of the gap as they do of their own back-pressure drops.
import type { JournalEntry } from '../../core/journal.js';
import type { TrafficRedis, TrafficRedisClient } from './redis-traffic-client.js';

/** How many entries one XREAD hands over at most. */
const READ_COUNT = 1_000;
/** Wait before reading again after a failure (Redis away): the client reconnects meanwhile. */
const RETRY_MS = 500;

/** The feed's connection as CLIENT LIST shows it, so an operator can tell what holds it. */
export const feedConnectionName = (prefix: string): string => `${prefix}journal-feed`.replace(/[^\w:.-]/g, '_');

/** A stream entry as Redis sends it: its ID and its fields, flat. */
export type StreamEntry = [id: string, fields: string[]];

export interface FeedSink {
  entry(entry: JournalEntry): void;
  /** `count` entries were appended that this feed will never deliver. */
  dropped(count: number): void;
}

/** Where the feed has read up to: the stream ID, and the seq there (unknown in an empty stream). */
interface Position {
  id: string;
  seq: number | undefined;
}

/** The journal entry a stream entry holds: its seq field, then the entry's own JSON. */
export function parseStreamEntry([, fields]: StreamEntry): JournalEntry {
  let seq = 0;
  let entry = '{}';
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'seq') seq = Number(fields[i + 1]);
    else if (fields[i] === 'entry') entry = fields[i + 1] as string;
  }
  return { seq, ...(JSON.parse(entry) as Omit<JournalEntry, 'seq'>) };
}

interface Run {
  reader: TrafficRedisClient;
  stopped: boolean;
  /** Settles once the run knows where the stream ends (or stops first). */
  ready: Promise<void>;
  markReady: () => void;
}

export class JournalFeed {
  private run: Run | undefined;
  /** The last failure logged, so an outage is one line, not one per retry. */
  private failing: string | undefined;

  constructor(
    private readonly redis: TrafficRedis,
    private readonly stream: string,
    private readonly sink: FeedSink,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    if (this.run) return;
    let markReady = (): void => {};
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const reader = this.redis.client.duplicate({ name: feedConnectionName(this.redis.prefix) });
    // Without a listener, node-redis's 'error' events (each failed reconnection) would be thrown.
    reader.on('error', (error) => this.failed(error));
    // Connected (again): the next outage is worth a line of its own.
    reader.on('ready', () => (this.failing = undefined));
    const run: Run = { reader, stopped: false, ready, markReady };
    this.run = run;
    void this.follow(run);
  }

  stop(): void {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    run.stopped = true;
    run.markReady();
    // Also ends the XREAD it is blocked in.
    run.reader.destroy();
  }

  /** Once entries appended from now on will be delivered; at once when the feed is not running. */
  listening(): Promise<void> {
    return this.run?.ready ?? Promise.resolve();
  }

  private async follow(run: Run): Promise<void> {
    let at: Position | undefined;
    let connected = false;
    while (!run.stopped) {
      try {
        if (!connected) connected = Boolean(await run.reader.connect());
        at ??= await this.end(run.reader);
        run.markReady();
        at = this.deliverAll(await this.read(run.reader, at.id), at);
      } catch (error) {
        if (run.stopped) return;
        this.failed(error as Error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      }
    }
  }

  /** The newest entry's position, or 0-0 for an empty or missing stream. */
  private async end(reader: TrafficRedisClient): Promise<Position> {
    const [newest] = (await reader.sendCommand(['XREVRANGE', this.stream, '+', '-', 'COUNT', '1'], { timeout: 0 })) as StreamEntry[];
    return newest ? { id: newest[0], seq: parseStreamEntry(newest).seq } : { id: '0-0', seq: undefined };
  }

  /** Blocks until entries after `from` exist; no timeout, as waiting is the point. */
  private async read(reader: TrafficRedisClient, from: string): Promise<StreamEntry[]> {
    const reply = (await reader.sendCommand(['XREAD', 'COUNT', String(READ_COUNT), 'BLOCK', '0', 'STREAMS', this.stream, from], { timeout: 0 })) as
      | [stream: string, entries: StreamEntry[]][]
      | null;
    return reply?.[0]?.[1] ?? [];
  }

  private deliverAll(entries: StreamEntry[], from: Position): Position {
    let at = from;
    for (const streamEntry of entries) {
      try {
        const entry = parseStreamEntry(streamEntry);
        if (at.seq !== undefined && entry.seq > at.seq + 1) this.sink.dropped(entry.seq - at.seq - 1);
        at = { id: streamEntry[0], seq: entry.seq };
        this.sink.entry(entry);
      } catch (error) {
        at = { id: streamEntry[0], seq: at.seq };
        this.log(`INTERNAL ERROR delivering journal entry ${streamEntry[0]}: ${(error as Error).message}`);
      }
    }
    return at;
  }

  private failed(error: Error): void {
    if (this.failing !== undefined) return;
    this.failing = error.message;
    this.log(`the live journal stream is not receiving entries (Redis: ${error.message}); it reads on once Redis is back`);
  }
}
