// What evolve writes: the human report (per consumer, breaking first, then the spec diff), the
// --json document (the shape issue 39 fixes) and the --junit XML (one testsuite per consumer, one
// testcase per operation). Bounded: findings per consumer are (consumers.ts), and the text shows
// at most MAX_SHOWN_PER_CONSUMER of each consumer's findings (the JSON has all kept).
import { xmlAttr, xmlText } from '../../contract/xml-escape.js';
import { counted } from '../../core/counted.js';
import type { ConsumerVerdict, FindingRow } from './consumers.js';
import type { SpecChange } from './spec-diff.js';

export const MAX_SHOWN_PER_CONSUMER = 50;
/** The text shows this many spec changes (the JSON has all). */
export const MAX_SHOWN_CHANGES = 200;
/** The text shows this many consumers, breaking ones first (the JSON and JUnit files have all). */
export const MAX_SHOWN_CONSUMERS = 100;

export interface EvolveResult {
  from: string;
  to: string;
  /** Where the exchanges came from. */
  source: string;
  exchanges: number;
  skipped: number;
  unjudged: number;
  consumers: ConsumerVerdict[];
  changes: SpecChange[];
}

export function jsonReport(result: EvolveResult): string {
  const { from, to, source, exchanges, skipped, unjudged, consumers, changes } = result;
  return `${JSON.stringify({ from, to, source, exchanges, skipped, unjudged, consumers, changes }, null, 2)}\n`;
}

export function textReport(result: EvolveResult, fromName: string, nextName: string): string {
  const lines = [`evolve: ${fromName} (${result.from}) → ${nextName} (${result.to}), ${counted(result.exchanges, 'exchange')} of ${counted(result.consumers.length, 'consumer')} from ${result.source}`];
  if (result.skipped > 0) lines.push(`  ${counted(result.skipped, 'more exchange')} ${wasOrWere(result.skipped)} not read (at most the first 100000 are judged)`);
  lines.push(`  replay a finding against a mock started with: shortlink-mock --contract ${nextName}   (set API_KEY to the consumer's key)`);
  if (result.unjudged > 0) lines.push(`  ${counted(result.unjudged, 'exchange')} could not be judged (network faults, bodies kept only as previews, the mock's own refusals)`);
  const ordered = orderedConsumers(result.consumers);
  for (const verdict of ordered.slice(0, MAX_SHOWN_CONSUMERS)) lines.push('', ...consumerLines(verdict));
  if (ordered.length > MAX_SHOWN_CONSUMERS) lines.push('', `… and ${counted(ordered.length - MAX_SHOWN_CONSUMERS, 'more consumer')} (see --json)`);
  lines.push('', `Spec changes (${result.changes.length}):`);
  for (const change of result.changes.slice(0, MAX_SHOWN_CHANGES)) {
    const hit = change.consumers.length ? `hits ${change.consumers.join(', ')}` : 'no consumer hit';
    lines.push(`  ${change.level.padEnd(5)} ${change.rule}: ${change.operationId}: ${change.change} — ${hit}`);
  }
  if (result.changes.length > MAX_SHOWN_CHANGES) lines.push(`  … and ${result.changes.length - MAX_SHOWN_CHANGES} more (see --json)`);
  const broken = result.consumers.filter((verdict) => verdict.breaking.length > 0).map((verdict) => verdict.consumer);
  const named = broken.length > MAX_SHOWN_CONSUMERS ? `${broken.slice(0, MAX_SHOWN_CONSUMERS).join(', ')}, …` : broken.join(', ');
  lines.push('', broken.length ? `BREAKING for ${broken.length} of ${counted(result.consumers.length, 'consumer')}: ${named}` : `No consumer breaks (${counted(result.consumers.length, 'consumer')}).`);
  return lines.join('\n');
}

const wasOrWere = (count: number): string => (count === 1 ? 'was' : 'were');

/** Consumers with breaking findings first, then changed, then fine; by name within each. */
function orderedConsumers(consumers: ConsumerVerdict[]): ConsumerVerdict[] {
  const rank = (verdict: ConsumerVerdict): number => (verdict.breaking.length ? 0 : verdict.changed.length ? 1 : 2);
  return [...consumers].sort((a, b) => rank(a) - rank(b) || a.consumer.localeCompare(b.consumer));
}

function consumerLines(verdict: ConsumerVerdict): string[] {
  const state = verdict.breaking.length ? 'BREAKING' : verdict.changed.length ? 'changed' : 'fine';
  const lines = [`${verdict.consumer}: ${state} (${counted(verdict.exchanges, 'exchange')}; ${verdict.breaking.length} breaking, ${verdict.changed.length} changed)`];
  const rows: Array<[string, FindingRow]> = [...verdict.breaking.map((row): [string, FindingRow] => ['BREAKING', row]), ...verdict.changed.map((row): [string, FindingRow] => ['changed ', row])];
  for (const [label, row] of rows.slice(0, MAX_SHOWN_PER_CONSUMER)) {
    lines.push(`  ${label} ${row.operationId} ${row.method} ${row.path}${row.pointer ? ` ${row.pointer}` : ''}: ${row.reason} (${row.count}×)`, `           replay: ${row.replay}`);
  }
  if (rows.length > MAX_SHOWN_PER_CONSUMER) lines.push(`  … and ${rows.length - MAX_SHOWN_PER_CONSUMER} more (see --json)`);
  if (verdict.findingsNotKept > 0) lines.push(`  ${counted(verdict.findingsNotKept, 'more distinct finding')} ${wasOrWere(verdict.findingsNotKept)} counted but not kept`);
  return lines;
}

/** One testsuite per consumer, one testcase per operation it called: failed when it breaks there. */
export function junitReport(result: EvolveResult): string {
  const suites = result.consumers.map((verdict) => {
    const operations = [...new Set([...verdict.operations, ...verdict.breaking.map((row) => row.operationId), ...verdict.changed.map((row) => row.operationId)])].sort();
    const cases = operations.map((operationId) => {
      const breaking = verdict.breaking.filter((row) => row.operationId === operationId);
      const changed = verdict.changed.filter((row) => row.operationId === operationId);
      const text = [...breaking, ...changed].map((row) => `${row.pointer || '(request)'}: ${row.reason} (${row.count}×)\n${row.replay}`).join('\n\n');
      const name = `    <testcase classname="${xmlAttr(verdict.consumer)}" name="${xmlAttr(operationId)}"`;
      if (!text) return `${name}/>`;
      const failure = breaking.length ? `<failure message="${xmlAttr(counted(breaking.length, 'breaking finding'))}">${xmlText(text)}</failure>` : `<system-out>${xmlText(text)}</system-out>`;
      return `${name}>${failure}</testcase>`;
    });
    // A consumer with no finding at all: one passing testcase, so the suite is not empty.
    if (cases.length === 0) cases.push(`    <testcase classname="${xmlAttr(verdict.consumer)}" name="all operations"/>`);
    const failures = verdict.breaking.length ? new Set(verdict.breaking.map((row) => row.operationId)).size : 0;
    return `  <testsuite name="${xmlAttr(verdict.consumer)}" tests="${cases.length}" failures="${failures}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="shortlink-mock evolve ${xmlAttr(result.from)} → ${xmlAttr(result.to)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
