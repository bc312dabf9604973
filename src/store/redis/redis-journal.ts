// The request journal on Redis, shared by every instance of the mock:
//   <prefix>traffic:journal       stream, capped (XADD MAXLEN ~ size + FEED_MARGIN): one entry per
//                                 request, fields `seq` and `entry` (the entry as JSON, without seq)
//   <prefix>traffic:journal:seq   the last seq given out
// One script numbers and appends an entry in one step, so the stream's order is the order of seq.
// Every instance's `entry` listeners hear every instance's entries, read back from the stream
// (src/store/redis/redis-journal-feed.ts), while it has any. The stream keeps FEED_MARGIN entries more
// than the journal's size, for those feeds; a list shows the newest `size`.
import { EventEmitter } from 'node:events';
import { filterEntries, type JournalEntry, type JournalFilter, type NewJournalEntry } from '../../core/journal.js';
import type { JournalEvents, JournalStore } from '../../core/traffic-state.js';
import { JournalFeed, parseStreamEntry, type StreamEntry } from './redis-journal-feed.js';
import type { TrafficRedis } from './redis-traffic-client.js';
import { recordKind } from './redis-record-batch.js';

/** K: the stream, the seq counter. A: the entry's JSON, how many entries the stream keeps (about: whole nodes are trimmed). */
const ADD = recordKind(
  'journal',
  `local seq = redis.call('INCR', K[2])
redis.call('XADD', K[1], 'MAXLEN', '~', A[2], '*', 'seq', seq, 'entry', A[1])`,
);

/**
 * The stream keeps this many entries beyond the journal's size (which is all a list shows), so
 * that the live feeds, reading a moment behind, do not lose the oldest entries of a burst.
 */
export const FEED_MARGIN = 1_000;

export class RedisJournal extends EventEmitter<JournalEvents> implements JournalStore {
  private readonly stream: string;
  private readonly seq: string;
  private readonly feed: JournalFeed;

  constructor(
    private readonly redis: TrafficRedis,
    readonly size: number,
    private readonly log: (line: string) => void,
  ) {
    super();
    // Every open event stream listens (src/admin/journal-stream.ts): their memory is bounded there, not by a count.
    this.setMaxListeners(0);
    this.stream = redis.key('journal');
    this.seq = redis.key('journal:seq');
    this.feed = new JournalFeed(redis, this.stream, { entry: (entry) => this.emit('entry', entry), dropped: (count) => this.emit('dropped', count) }, log);
    // The feed holds a connection of its own: only while someone listens ('newListener' comes
    // before the listener is added, 'removeListener' after it is removed).
    const events = this as EventEmitter;
    events.on('newListener', (event: string) => {
      if (event === 'entry' && this.listenerCount('entry') === 0) this.feed.start();
    });
    events.on('removeListener', (event: string) => {
      if (event === 'entry' && this.listenerCount('entry') === 0) this.feed.stop();
    });
  }

  /** Never throws; the promise (requests do not wait for it) settles once the entry is stored or dropped. */
  add(entry: NewJournalEntry): Promise<void> {
    let json: string;
    try {
      json = JSON.stringify(entry);
    } catch (error) {
      this.log(`INTERNAL ERROR journaling ${entry.method} ${entry.path}: ${(error as Error).message}`);
      return Promise.resolve();
    }
    return this.redis.record(ADD, [this.stream, this.seq], [json, String(this.size + FEED_MARGIN)]);
  }

  async list(filter: JournalFilter = {}, accountIdOfKey: (key: string) => string | undefined = () => undefined): Promise<JournalEntry[]> {
    if (this.size === 0) return [];
    const newestFirst = (await this.redis.callAfterRecords(['XREVRANGE', this.stream, '+', '-', 'COUNT', String(this.size)])) as StreamEntry[];
    return filterEntries(newestFirst.reverse().map(parseStreamEntry), filter, accountIdOfKey);
  }

  /** Empties the stream but keeps it (and its last ID), so the feeds of every instance read on. */
  async clear(): Promise<void> {
    await this.redis.callAfterRecords(['XTRIM', this.stream, 'MAXLEN', '0']);
  }

  listening(): Promise<void> {
    return this.feed.listening();
  }

  close(): void {
    this.feed.stop();
  }
}
