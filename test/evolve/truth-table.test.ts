// evolve's verdicts on the fixture traffic (traffic.ts) for each planted edit of the contract
// (test/fixtures/evolve/), cell by cell: which consumer breaks, which sees a changed answer, which
// is fine. 0 misses, 0 false alarms, on a journal recorded in mock mode (read from the running mock
// and from a saved file), on one recorded in proxy mode (consumers told apart by user-agent: the
// proxy knows no accounts), and on the pacts `pact export` writes of the mock-mode traffic.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evolve, view, type Compiled } from '../../src/commands/evolve.js';
import type { ConsumerBy } from '../../src/commands/evolve/exchanges.js';
import type { Source } from '../../src/commands/evolve/input.js';
import { runPactExport } from '../../src/pact/export-command.js';
import { CONTRACT_FILE } from '../../src/contract/package-files.js';
import { startMock, type RunningMock } from '../../src/index.js';
import { edits, writeNext } from './edits.js';
import type { JournalEntry } from '../../src/core/journal-types.js';
import { CONSUMERS, QA, recordTraffic, SDK, USER_AGENTS, WEB } from './traffic.js';

type Cell = 'breaking' | 'changed' | 'fine';
const B: Cell = 'breaking';
const C: Cell = 'changed';
const F: Cell = 'fine';

/** Edit → [web app, SDK, QA script]. */
const TRUTH: Record<string, [Cell, Cell, Cell]> = {
  'b1-delete-removed': [B, F, F],
  'b2-slug-max-length-5': [F, B, F],
  'b3-tags-max-items-1': [F, B, F],
  'b4-create-400-removed': [F, F, B],
  'b5-update-url-required': [F, B, F],
  'b6-security-header-renamed': [B, B, B],
  'b7-update-merge-patch-only': [F, B, B],
  'a1-list-operation-added': [F, F, F],
  'a2-optional-request-note': [F, F, F],
  'a3-create-409-added': [F, F, F],
  'a4-link-title-removed': [F, F, F],
  'a5-slug-pattern-lowercase': [F, F, F],
  'a6-link-expires-at-optional': [F, F, F],
  'a7-link-id-pattern': [F, F, F],
  'c1-short-url-optional': [C, C, F],
  'c2-link-expires-at-required': [C, C, F],
};

/**
 * Edit → the spec diff's changes (`rule operationId`) with the consumers each hits, on the mock-mode
 * journal: "breaking by rule, no consumer hit" (a4, a5, a7) and "additive by rule, yet hit" (c2) show.
 */
const CHANGES: Record<string, string[]> = {
  'b1-delete-removed': [`operation-removed deleteLink: ${WEB}`],
  'b2-slug-max-length-5': [`request-property-max-length-decreased createLink: ${SDK}`],
  'b3-tags-max-items-1': [`request-property-max-items-decreased createLink: ${SDK}`],
  'b4-create-400-removed': [`response-status-removed createLink: ${QA}`],
  'b5-update-url-required': [`request-property-became-required updateLink: ${SDK}`],
  'b6-security-header-renamed': [`security-changed createLink: ${SDK}, ${WEB}, ${QA}`, `security-changed deleteLink: ${WEB}`, `security-changed updateLink: ${SDK}, ${QA}`],
  'b7-update-merge-patch-only': [`request-media-type-removed updateLink: ${SDK}, ${QA}`],
  'a1-list-operation-added': ['operation-added listLinks: '],
  'a2-optional-request-note': ['request-property-added createLink: '],
  'a3-create-409-added': ['response-status-added createLink: '],
  'a4-link-title-removed': ['response-property-removed createLink: ', 'response-property-removed updateLink: '],
  'a5-slug-pattern-lowercase': ['request-property-pattern-changed createLink: '],
  'a6-link-expires-at-optional': ['response-property-added createLink: ', 'response-property-added updateLink: '],
  'a7-link-id-pattern': ['path-parameter-changed deleteLink: ', 'path-parameter-changed updateLink: '],
  'c1-short-url-optional': [`response-property-became-optional createLink: ${SDK}, ${WEB}`, `response-property-became-optional updateLink: ${SDK}`],
  'c2-link-expires-at-required': [`response-property-added createLink: ${SDK}, ${WEB}`, `response-property-added updateLink: ${SDK}`],
};

const dir = mkdtempSync(join(tmpdir(), 'evolve-'));
const quiet = { log: () => undefined };
let mock: RunningMock;
let upstream: RunningMock;
let proxy: RunningMock;
const journalFile = join(dir, 'journal.json');
const pactFiles = CONSUMERS.map((consumer) => join(dir, `${consumer.replace(/ /g, '-')}.json`));

beforeAll(async () => {
  [mock, upstream] = await Promise.all([startMock(quiet), startMock(quiet)]);
  proxy = await startMock({ ...quiet, proxy: upstream.url });
  const keys = await recordTraffic(mock);
  await recordTraffic(upstream, proxy.url);
  const [journal, accounts] = await Promise.all([fetch(`${mock.url}/__admin/requests`).then((res) => res.json()), fetch(`${mock.url}/__admin/accounts`).then((res) => res.json())]);
  writeFileSync(journalFile, JSON.stringify({ ...(journal as object), accounts: (accounts as { accounts: unknown }).accounts }));
  const silent = { out: () => undefined, err: (text: string) => console.error(text) };
  for (const [index, consumer] of CONSUMERS.entries()) {
    // pact export leaves out what a scenario shaped: the QA script's pact is written as its team would, from its exchanges.
    if (consumer === QA) {
      writeFileSync(pactFiles[index] ?? '', JSON.stringify(pactOf(consumer, (journal as { entries: JournalEntry[] }).entries.filter((entry) => entry.headers?.['user-agent'] === USER_AGENTS[QA]))));
      continue;
    }
    const exported = await runPactExport(['--consumer', consumer, '--api-key', keys[consumer] ?? '', '--base-url', mock.url, '--out', pactFiles[index] ?? ''], {}, silent);
    if (exported !== 0) throw new Error(`pact export for ${consumer}: exit ${exported}`);
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([mock?.stop(), proxy?.stop(), upstream?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** A Pact V3 file of the entries, as a consumer would write it. */
function pactOf(consumer: string, entries: JournalEntry[]): object {
  const interactions = entries.map((entry, index) => ({
    description: `${consumer} ${index}`,
    request: { method: entry.method, path: entry.path, headers: { 'x-api-key': 'k', ...(entry.requestBody === null ? {} : { 'content-type': 'application/json' }) }, ...(entry.requestBody === null ? {} : { body: entry.requestBody }) },
    response: { status: entry.status, headers: { 'content-type': 'application/json' }, ...(entry.responseBody === null ? {} : { body: entry.responseBody }) },
  }));
  return { consumer: { name: consumer }, provider: { name: 'shortlink-api' }, interactions, metadata: { pactSpecification: { version: '3.0.0' } } };
}

/** Each contract compiled once for the whole file (its inputs and its spec diff). */
const compiledOnce = new Map<string, Compiled>();
let fromCompiled: Compiled['from'];
function compiledFor(edit: Parameters<typeof writeNext>[0]): { next: string; compiled: Compiled } {
  const next = writeNext(edit, dir);
  fromCompiled ??= view(CONTRACT_FILE, '--from');
  const known = compiledOnce.get(edit.name) ?? { from: fromCompiled, next: view(next, '--contract') };
  compiledOnce.set(edit.name, known);
  return { next, compiled: known };
}

const byAgent = Object.fromEntries(Object.entries(USER_AGENTS).map(([consumer, agent]) => [agent, consumer]));

/** Each recorded input, and how its consumers' names map to the fixture's. */
const INPUTS: Record<string, () => { source: Source; consumerBy: ConsumerBy; name: (consumer: string) => string }> = {
  'mock mode, --base-url': () => ({ source: { kind: 'base-url', url: mock.url }, consumerBy: { kind: 'key' }, name: (consumer) => consumer }),
  'mock mode, --journal': () => ({ source: { kind: 'journal', file: journalFile }, consumerBy: { kind: 'key' }, name: (consumer) => consumer }),
  'proxy mode, --consumer-by header:user-agent': () => ({ source: { kind: 'base-url', url: proxy.url }, consumerBy: { kind: 'header', name: 'user-agent' }, name: (agent) => byAgent[agent] ?? agent }),
  'pacts of the mock-mode traffic': () => ({ source: { kind: 'pact', files: pactFiles }, consumerBy: { kind: 'key' }, name: (consumer) => consumer }),
};

it('plants at least 6 edits breaking for some consumer and 6 breaking for none', () => {
  expect(Object.keys(TRUTH).sort()).toEqual(edits().map((edit) => edit.name));
  expect(Object.values(TRUTH).filter((row) => row.includes(B)).length).toBeGreaterThanOrEqual(6);
  expect(Object.values(TRUTH).filter((row) => !row.includes(B)).length).toBeGreaterThanOrEqual(6);
});

const cellOf = (verdict: { breaking: unknown[]; changed: unknown[] } | undefined): Cell => (verdict === undefined ? F : verdict.breaking.length ? B : verdict.changed.length ? C : F);

describe.each(edits().map((edit) => [edit.name, edit] as const))('%s', (name, edit) => {
  it.each(Object.keys(INPUTS))('%s: the truth table row', async (input) => {
    const { next, compiled } = compiledFor(edit);
    const { source, consumerBy, name: rename } = (INPUTS[input] as () => ReturnType<(typeof INPUTS)[string]>)();
    const result = await evolve({ next, from: CONTRACT_FILE, source, consumerBy }, compiled);
    const verdicts = result.consumers.map((verdict) => ({ ...verdict, consumer: rename(verdict.consumer) }));
    expect(verdicts.map((verdict) => verdict.consumer).sort()).toEqual([...CONSUMERS].sort());
    const row = CONSUMERS.map((consumer) => cellOf(verdicts.find((verdict) => verdict.consumer === consumer)));
    expect({ edit: name, row }).toEqual({ edit: name, row: TRUTH[name] });
  });

  it('the spec diff: each change by rule, with the consumers it hits (mock-mode journal)', async () => {
    const { next, compiled } = compiledFor(edit);
    const result = await evolve({ next, from: CONTRACT_FILE, source: { kind: 'journal', file: journalFile }, consumerBy: { kind: 'key' } }, compiled);
    const changes = result.changes.map((change) => `${change.rule} ${change.operationId}: ${change.consumers.join(', ')}`);
    expect({ edit: name, changes }).toEqual({ edit: name, changes: CHANGES[name] });
  });
});

