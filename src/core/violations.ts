// The drift report's aggregate: the distinct ways proxied exchanges broke openapi.yaml, each with
// how often, when first and last, and one example exchange. A violation is distinct by where it
// happened (operation, method, status) and what broke (side, rule); `rule` is the same text for
// every exchange broken the same way, so a busy proxy collapses into a few rows. Memory is bounded:
// past MAX_DISTINCT_VIOLATIONS of a side (the client's requests, the upstream's answers), new
// distinct violations of that side are only counted in `dropped`: a client sending noise cannot
// push the upstream's drift out of the report, which is what the report is for.
// This file holds the shapes, the rules shared by both stores, and the in-memory ViolationStore;
// the Redis one is src/store/redis/redis-violations.ts.
import type { Awaitable } from './awaitable.js';
import type { NewJournalEntry, Violation } from './journal.js';

/** Distinct violations kept at most per side (each holds one example, bodies capped by the journal). */
export const MAX_DISTINCT_VIOLATIONS = 1000;

/**
 * Violations of one exchange kept per side (the client's request, the upstream's answer): the first
 * ones, the rest only counted. A 12 KiB body can hold 1,000 unknown fields, each a violation; kept
 * per side, the client's noise never pushes the upstream's violations out of the journal entry.
 */
export const MAX_VIOLATIONS_PER_SIDE = 20;

/** The first `max` of a list, and how many more there were. */
export function keepFirst<T>(items: readonly T[], max = MAX_VIOLATIONS_PER_SIDE): { kept: T[]; notKept: number } {
  return items.length <= max ? { kept: [...items], notKept: 0 } : { kept: items.slice(0, max), notKept: items.length - max };
}

/** What the report needs of a journal entry (a stored JournalEntry is one too). */
export type ViolationSource = Pick<NewJournalEntry, 'time' | 'method' | 'path' | 'operationId' | 'apiKey' | 'status' | 'requestBody' | 'responseBody' | 'violations'>;

/** The first exchange seen breaking the contract this way, as the journal kept it (key masked). */
export interface ViolationExample {
  time: string;
  method: string;
  path: string;
  apiKey: string | null;
  status: number | null;
  requestBody: unknown;
  responseBody: unknown;
  /** That exchange's own evidence, when the proxy gave one. */
  detail?: string;
}

export interface DistinctViolation {
  side: Violation['side'];
  rule: string;
  /** Exchanges that broke the contract this way (one exchange counts once per rule). */
  count: number;
  firstSeen: string;
  lastSeen: string;
  example: ViolationExample;
}

/** Where violations happened: an operation of the contract (null: a path outside it), its method and the answer's status. */
export interface ViolationGroup {
  operationId: string | null;
  method: string;
  /** null when no answer was sent (the upstream could not be reached). */
  status: number | null;
  violations: DistinctViolation[];
}

export interface ViolationReport {
  /** Distinct violations kept (the sum of every group's violations). */
  distinct: number;
  /** Sightings of distinct violations not kept, the bound of their side being reached. */
  dropped: number;
  /** In the order first seen; so are the violations of each group. */
  groups: ViolationGroup[];
}

/**
 * Which side a report covers: the client's requests, the upstream's answers, or both. A gate on the
 * upstream alone (`drift --side response`) is not failed by a client suite that sends bad requests
 * on purpose to test its 400 paths.
 */
export type ViolationSide = Violation['side'] | 'both';
export const VIOLATION_SIDES: readonly ViolationSide[] = ['response', 'request', 'both'];

/** Sightings not kept, per side (the bound is per side). */
export type DroppedBySide = Record<Violation['side'], number>;

export interface ViolationStore {
  /** Takes an exchange's violations: never throws, never waits (a store that cannot take them drops them). */
  record(entry: ViolationSource): void;
  /** The report of one side, or of both (the default). */
  report(side?: ViolationSide): Awaitable<ViolationReport>;
  clear(): Awaitable<void>;
}

/** What makes a violation distinct. */
export interface ViolationKey {
  operationId: string | null;
  method: string;
  status: number | null;
  side: Violation['side'];
  rule: string;
}

/** One distinct violation of one exchange. */
export interface Sighting {
  key: ViolationKey;
  /** The key as one string (JSON, so no rule text can be mistaken for another): map key and Redis field. */
  field: string;
  time: string;
  example: ViolationExample;
}

/** A distinct violation as a store keeps it, before grouping. */
export interface TrackedViolation {
  key: ViolationKey;
  count: number;
  firstSeen: string;
  lastSeen: string;
  example: ViolationExample;
}

export const violationField = (key: ViolationKey): string => JSON.stringify([key.operationId, key.method, key.status, key.side, key.rule]);

/** The field back as a key (a store reading its fields). */
export function violationKeyOf(field: string): ViolationKey {
  const [operationId, method, status, side, rule] = JSON.parse(field) as [string | null, string, number | null, Violation['side'], string];
  return { operationId, method, status, side, rule };
}

/** The exchange's distinct violations (the first detail of a rule broken twice is its evidence). */
export function sightingsOf(entry: ViolationSource): Sighting[] {
  const byField = new Map<string, Sighting>();
  for (const violation of entry.violations ?? []) {
    const key: ViolationKey = { operationId: entry.operationId, method: entry.method, status: entry.status, side: violation.side, rule: violation.rule };
    const field = violationField(key);
    if (byField.has(field)) continue;
    const { time, method, path, apiKey, status, requestBody, responseBody } = entry;
    const example = { time, method, path, apiKey, status, requestBody, responseBody, ...(violation.detail === undefined ? {} : { detail: violation.detail }) };
    byField.set(field, { key, field, time, example });
  }
  return [...byField.values()];
}

/** Tracked violations of the side asked for, in the order first seen, grouped by where they happened. */
export function buildViolationReport(tracked: Iterable<TrackedViolation>, dropped: DroppedBySide, side: ViolationSide = 'both'): ViolationReport {
  const groups = new Map<string, ViolationGroup>();
  let distinct = 0;
  for (const { key, count, firstSeen, lastSeen, example } of tracked) {
    if (side !== 'both' && key.side !== side) continue;
    const where = JSON.stringify([key.operationId, key.method, key.status]);
    let group = groups.get(where);
    if (!group) groups.set(where, (group = { operationId: key.operationId, method: key.method, status: key.status, violations: [] }));
    group.violations.push({ side: key.side, rule: key.rule, count, firstSeen, lastSeen, example });
    distinct += 1;
  }
  return { distinct, dropped: side === 'both' ? dropped.request + dropped.response : dropped[side], groups: [...groups.values()] };
}

export class MemoryViolations implements ViolationStore {
  /** Map order is the order first seen. */
  private readonly tracked = new Map<string, TrackedViolation>();
  private readonly kept = { request: 0, response: 0 };
  private readonly dropped: DroppedBySide = { request: 0, response: 0 };

  constructor(private readonly max = MAX_DISTINCT_VIOLATIONS) {}

  record(entry: ViolationSource): void {
    for (const sighting of sightingsOf(entry)) {
      let tracked = this.tracked.get(sighting.field);
      if (!tracked) {
        if (this.kept[sighting.key.side] >= this.max) {
          this.dropped[sighting.key.side] += 1;
          continue;
        }
        this.kept[sighting.key.side] += 1;
        const { key, time, example } = sighting;
        this.tracked.set(sighting.field, (tracked = { key, count: 0, firstSeen: time, lastSeen: time, example }));
      }
      tracked.count += 1;
      // ISO times compare as strings; entries may come out of order (several requests in flight).
      if (sighting.time < tracked.firstSeen) tracked.firstSeen = sighting.time;
      if (sighting.time > tracked.lastSeen) tracked.lastSeen = sighting.time;
    }
  }

  report(side: ViolationSide = 'both'): ViolationReport {
    return buildViolationReport(this.tracked.values(), this.dropped, side);
  }

  clear(): void {
    this.tracked.clear();
    this.kept.request = this.kept.response = 0;
    this.dropped.request = this.dropped.response = 0;
  }
}
