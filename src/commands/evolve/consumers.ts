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
  replay: string;
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
  rows: Map<string, FindingRow>;
}

export class Consumers {
  private readonly byName = new Map<string, Gathering>();

  add(exchange: Exchange, operationId: string | undefined, findings: Finding[]): void {
    const gathering = this.gathering(exchange.consumer);
    gathering.verdict.exchanges += 1;
    if (operationId !== undefined && gathering.operations.size < MAX_FINDINGS_PER_CONSUMER) gathering.operations.add(operationId);
    for (const finding of findings) {
      const key = `${finding.kind} ${finding.operationId} ${finding.method} ${finding.path} ${finding.pointer} ${finding.reason}`;
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
      const made: FindingRow = { operationId: finding.operationId, method: finding.method, path: finding.path, pointer: finding.pointer, reason: finding.reason, count: 1, replay: replayCommand(exchange) };
      gathering.rows.set(key, made);
      listOf(verdict, finding.kind).push(made);
    }
  }

  /** Sorted by name; each consumer's findings by operation and pointer. */
  verdicts(): ConsumerVerdict[] {
    const order = (a: FindingRow, b: FindingRow): number => `${a.operationId} ${a.pointer} ${a.reason}`.localeCompare(`${b.operationId} ${b.pointer} ${b.reason}`);
    return [...this.byName.values()]
      .map(({ verdict, operations }) => ({ ...verdict, operations: [...operations].sort(), breaking: [...verdict.breaking].sort(order), changed: [...verdict.changed].sort(order) }))
      .sort((a, b) => a.consumer.localeCompare(b.consumer));
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

const listOf = (verdict: ConsumerVerdict, kind: Kind): FindingRow[] => (kind === 'breaking' ? verdict.breaking : verdict.changed);
