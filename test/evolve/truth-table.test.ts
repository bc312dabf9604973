// evolve's verdicts on the fixture traffic (traffic.ts) for each planted edit of the contract
// (test/fixtures/evolve/), cell by cell: which consumer breaks, which sees a changed answer, which
// is fine. 0 misses, 0 false alarms, on a journal recorded in mock mode.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evolve } from '../../src/commands/evolve.js';
import { CONTRACT_FILE } from '../../src/contract/package-files.js';
import { startMock, type RunningMock } from '../../src/index.js';
import { edits, writeNext } from './edits.js';
import { CONSUMERS, QA, recordTraffic, SDK, WEB } from './traffic.js';

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

const dir = mkdtempSync(join(tmpdir(), 'evolve-'));
let mock: RunningMock;
let journalFile: string;

beforeAll(async () => {
  mock = await startMock({ log: () => undefined });
  await recordTraffic(mock);
  journalFile = join(dir, 'journal.json');
  const [journal, accounts] = await Promise.all([fetch(`${mock.url}/__admin/requests`).then((res) => res.json()), fetch(`${mock.url}/__admin/accounts`).then((res) => res.json())]);
  writeFileSync(journalFile, JSON.stringify({ ...(journal as object), accounts: (accounts as { accounts: unknown }).accounts }));
});
afterAll(async () => {
  await mock?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('plants at least 6 edits breaking for some consumer and 6 breaking for none', () => {
  expect(Object.keys(TRUTH).sort()).toEqual(edits().map((edit) => edit.name));
  expect(Object.values(TRUTH).filter((row) => row.includes(B)).length).toBeGreaterThanOrEqual(6);
  expect(Object.values(TRUTH).filter((row) => !row.includes(B)).length).toBeGreaterThanOrEqual(6);
});

const cellOf = (verdict: { breaking: unknown[]; changed: unknown[] } | undefined): Cell => (verdict === undefined ? F : verdict.breaking.length ? B : verdict.changed.length ? C : F);

describe.each(edits().map((edit) => [edit.name, edit] as const))('%s', (name, edit) => {
  it.each(['base-url', 'journal'] as const)('from the mock-mode journal (%s): the truth table row', async (kind) => {
    const next = writeNext(edit, dir);
    const source = kind === 'journal' ? { kind, file: journalFile } : { kind, url: mock.url };
    const result = await evolve({ next, from: CONTRACT_FILE, source, consumerBy: { kind: 'key' } });
    expect(result.consumers.map((verdict) => verdict.consumer).sort()).toEqual([...CONSUMERS].sort());
    const row = CONSUMERS.map((consumer) => cellOf(result.consumers.find((verdict) => verdict.consumer === consumer)));
    expect({ edit: name, row }).toEqual({ edit: name, row: TRUTH[name] });
  });
});

void [WEB, SDK, QA];
