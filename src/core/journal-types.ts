// The journal's types: an entry as recorded and listed, the filters, and the port a journal
// implements (JournalStore): in memory (src/core/journal.ts) or on Redis
// (src/store/redis/redis-journal.ts). Types only, so that the journal, the traffic state and the stores
// name them without importing each other.
import type { EventEmitter } from 'node:events';
import type { Awaitable } from './awaitable.js';

/**
 * 'mock-control': the mock refused one of its own controls (x-mock-scenario, Prefer), not an answer
 * of the API. 'store-unavailable': the data was out of reach (Redis down), an outage, not a bug of
 * the mock ('internal-error').
 */
export type Verdict = 'ok' | 'invalid-request' | 'contract-violation' | 'internal-error' | 'store-unavailable' | 'fault' | 'upstream-error' | 'mock-control';

/**
 * One way an exchange broke openapi.yaml, seen by the validating proxy (--proxy): the client's
 * request ('request') or the upstream's answer ('response'). `rule` is the same text for every
 * exchange that breaks the contract the same way (it groups the drift report); `detail` is this
 * exchange's own evidence, such as the offending value.
 */
export interface Violation {
  side: 'request' | 'response';
  rule: string;
  detail?: string;
}

/** What the upstream did with a proxied request: its status, or why there was none. */
export interface UpstreamOutcome {
  /** The URL the request went to, without its query string. */
  url: string;
  /** null when it could not be reached or did not answer in time. */
  status: number | null;
  durationMs: number;
  /** Why there is no status: refused, reset, timed out, too large. */
  error?: string;
  /**
   * The upstream's body (as the journal keeps bodies), only when the client was given another
   * answer (--proxy-strict's 502): the evidence of what broke the contract.
   */
  body?: unknown;
}

export interface JournalEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  operationId: string | null;
  /** The masked API key the request carried, or null without one. */
  apiKey: string | null;
  accountId: string | null;
  status: number | null;
  durationMs: number;
  scenario: string | null;
  fault: string | null;
  verdict: Verdict;
  requestBody: unknown;
  responseBody: unknown;
  /** Proxy mode only: how the exchange broke the contract ([] when it kept it): the first MAX_VIOLATIONS_PER_SIDE of each side. */
  violations?: Violation[];
  /** Proxy mode only, when some were not kept: how many more violations the exchange had. */
  violationsNotKept?: number;
  /** Proxy mode only: what the upstream answered; absent when a scenario answered locally. */
  upstream?: UpstreamOutcome;
  /**
   * The request's headers that name its client (user-agent and any x-client-* header), so that a
   * report can tell clients apart by a header (evolve --consumer-by header:NAME); absent when none.
   */
  headers?: Record<string, string>;
  /** Variety mode: the seed the answer was drawn under and the dimensions that changed it; null when variety was off. */
  variety?: AnswerVariety | null;
  /** With a contract FILE: the operationId of an answer made from FILE's schema (x-mock-generated); absent otherwise. */
  generated?: string;
  /** With a contract FILE that adds Link fields: those made from FILE's schema that a Link answer holds (`Link.expiresAt`; x-mock-generated); absent otherwise. */
  generatedFields?: string[];
}

export interface AnswerVariety {
  seed: number;
  dimensions: string[];
}

/** What the recorder hands over: the store numbers it. */
export type NewJournalEntry = Omit<JournalEntry, 'seq'>;

export interface JournalFilter {
  account?: string;
  operation?: string;
  status?: number;
  scenario?: string;
  limit?: number;
}

export interface JournalEvents {
  /** Every entry recorded, through any instance, in the order recorded. */
  entry: [JournalEntry];
  /** A shared journal moved past `count` entries before this instance could hear them (never in memory). */
  dropped: [count: number];
}

/** The last `size` requests, oldest first; `entry` events feed the live stream. */
export interface JournalStore extends EventEmitter<JournalEvents> {
  readonly size: number;
  /** Records one request: never throws, never waits (a store that cannot take it drops it). */
  add(entry: NewJournalEntry): void;
  /** Oldest first; filters combine with AND; `limit` keeps the newest. */
  list(filter?: JournalFilter, accountIdOfKey?: (key: string) => string | undefined): Awaitable<JournalEntry[]>;
  clear(): Awaitable<void>;
  /**
   * Resolves once every entry recorded from now on reaches this instance's `entry` listeners (call
   * it after adding one). In memory at once; on Redis once the feed knows where the journal ends.
   */
  listening(): Promise<void>;
}
