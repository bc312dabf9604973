// The findings of each consumer, gathered: one row per distinct finding (operation, pointer,
// reason) with how many exchanges hit it and the first as its example. Bounded: MAX_FINDINGS per
// consumer are kept (the rest counted in findingsNotKept), MAX_CONSUMERS consumers (the rest
// folded into OTHER_CONSUMERS).
import type { Exchange } from './exchanges.js';
import type { Finding, Kind } from './judge.js';
import { replayCommand } from './replay.js';

export const MAX_FINDINGS_PER_CONSUMER = 1000;
export const MAX_CONSUMERS = 1000;
export const OTHER_CONSUMERS = '(other consumers)';

export interface FindingRow {
  operationId: string;
  method: string;
  path: string;
  pointer: string;
  reason: string;
  count: number;
  readonly replay: string;
}

export interface ConsumerVerdict {
  consumer: string;
  exchanges: number;
  breaking: FindingRow[];
  changed: FindingRow[];
  /** The operations its exchanges called (by --from's operationIds), sorted. */
  operations: string[];
  /** Distinct findings past MAX_FINDINGS_PER_CONSUMER: counted, not listed. */
  findingsNotKept: number;
}

interface Gathering {
  verdict: ConsumerVerdict;
  operations: Set<string>;
  /** By kind, operation, pointer and reason. */
  rows: Map<string, FindingRow>;
}

export class Consumers {
  private readonly byName = new Map<string, Gathering>();

  add(exchange: Exchange, operationId: string | undefined, findings: Finding[]): void {
    const gathering = this.gathering(exchange.consumer);
    gathering.verdict.exchanges += 1;
    if (operationId !== undefined && gathering.operations.size < MAX_FINDINGS_PER_CONSUMER) gathering.operations.add(operationId);
    for (const finding of findings) {
      // The method and path follow from the kind and operation (a removed operation's reason says so).
      const key = `${finding.kind}\0${finding.operationId}\0${finding.pointer}\0${finding.reason}`;
      const row = gathering.rows.get(key);
      if (row) {
        row.count += 1;
        continue;
      }
      const { verdict } = gathering;
      if (verdict.breaking.length + verdict.changed.length >= MAX_FINDINGS_PER_CONSUMER) {
        verdict.findingsNotKept += 1;
        continue;
      }
      const made = rowOf(finding, exchange);
      gathering.rows.set(key, made);
      listOf(verdict, finding.kind).push(made);
    }
  }

  /** Sorted by name; each consumer's findings by operation and pointer. */
  verdicts(): ConsumerVerdict[] {
    return [...this.byName.values()]
      .map(({ verdict, operations }) => ({ ...verdict, operations: [...operations].sort(), breaking: sortedRows(verdict.breaking), changed: sortedRows(verdict.changed) }))
      .sort((a, b) => COLLATOR.compare(a.consumer, b.consumer));
  }

  private gathering(name: string): Gathering {
    const known = this.byName.get(name);
    if (known) return known;
    const consumer = this.byName.size >= MAX_CONSUMERS - 1 ? OTHER_CONSUMERS : name;
    const folded = this.byName.get(consumer);
    if (folded) return folded;
    const made: Gathering = { verdict: { consumer, exchanges: 0, breaking: [], changed: [], operations: [], findingsNotKept: 0 }, operations: new Set(), rows: new Map() };
    this.byName.set(consumer, made);
    return made;
  }
}

/**
 * A new row, its example the exchange that first hit it. Its replay line is written when a report
 * reads it (an own enumerable getter, so JSON and the text report show it like any field), once: a
 * journal of unique values (a slug per request) makes a row per exchange, and the text report shows
 * 50 rows a consumer.
 */
function rowOf(finding: Finding, exchange: Exchange): FindingRow {
  let replay: string | undefined;
  return {
    operationId: finding.operationId,
    method: finding.method,
    path: finding.path,
    pointer: finding.pointer,
    reason: finding.reason,
    count: 1,
    get replay(): string {
      return (replay ??= replayCommand(exchange));
    },
  };
}

/** The order of String.prototype.localeCompare (the default locale's), from one collator: a call of localeCompare builds one each time. */
const COLLATOR = new Intl.Collator();

/** By operation, pointer and reason, each row's key made once (not at each of its n log n comparisons). */
function sortedRows(rows: readonly FindingRow[]): FindingRow[] {
  return rows
    .map((row) => ({ row, key: `${row.operationId} ${row.pointer} ${row.reason}` }))
    .sort((a, b) => COLLATOR.compare(a.key, b.key))
    .map(({ row }) => row);
}

const listOf = (verdict: ConsumerVerdict, kind: Kind): FindingRow[] => (kind === 'breaking' ? verdict.breaking : verdict.changed);
