// Issue 39, item 6: `robustness --contract NEXT -- <cmd>` runs a client's suite against the answers
// only NEXT allows and today's contract does not. Four small clients (test/robustness/clients/
// next-*.cjs: three brittle in different ways, one tolerant) × the additive edits of the fixture
// contracts (test/fixtures/contracts/) and of evolve's truth table (test/fixtures/evolve/): the
// truth table is asserted cell by cell. A failing cell is shrunk to the edit's own next.* dimensions
// only; a passing cell lists the edit's changes as survived; the tolerant client has no false alarm.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRobustnessCommand } from '../../src/commands/robustness.js';
import { edits, writeNext } from '../evolve/edits.js';
import { CLIENT_NODE } from './client-node.js';

const CLIENTS = join(import.meta.dirname, 'clients');
const CONTRACTS = join(import.meta.dirname, '..', 'fixtures', 'contracts');
const dir = mkdtempSync(join(tmpdir(), 'robustness-next-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const evolveEdit = (name: string): string => writeNext(edits().find((edit) => edit.name === name)!, dir);

/** Each additive edit: its NEXT, and the next.* dimensions it brings (a failure must be shrunk to these only). */
const EDITS: Record<string, { next: () => string; dimensions: RegExp }> = {
  'new optional field (expires-at)': { next: () => join(CONTRACTS, 'expires-at.yaml'), dimensions: /^next\.(createLink|updateLink)\.\/expiresAt:present$/ },
  'new optional field (evolve a6)': { next: () => evolveEdit('a6-link-expires-at-optional'), dimensions: /^next\.(createLink|updateLink)\.\/expiresAt:present$/ },
  'new enum value': { next: () => join(CONTRACTS, 'enum-value-added.yaml'), dimensions: /^next\.\w+\.\/code:new-enum-value$/ },
  'field made nullable': { next: () => join(CONTRACTS, 'title-nullable.yaml'), dimensions: /^next\.(createLink|updateLink)\.\/title:null$/ },
  'field no longer required (evolve c1)': { next: () => evolveEdit('c1-short-url-optional'), dimensions: /^next\.(createLink|updateLink)\.\/shortUrl:absent$/ },
  'newly documented status': { next: () => join(CONTRACTS, 'status-added.yaml'), dimensions: /^next\.createLink\.\/responses\/409:forced$/ },
};

type Cell = 'fails' | 'survives';
/** The truth table: client × edit. */
const TABLE: Record<string, Record<keyof typeof EDITS, Cell>> = {
  'next-strict-fields': { 'new optional field (expires-at)': 'fails', 'new optional field (evolve a6)': 'fails', 'new enum value': 'survives', 'field made nullable': 'survives', 'field no longer required (evolve c1)': 'survives', 'newly documented status': 'survives' },
  'next-null-crash': { 'new optional field (expires-at)': 'survives', 'new optional field (evolve a6)': 'survives', 'new enum value': 'survives', 'field made nullable': 'fails', 'field no longer required (evolve c1)': 'survives', 'newly documented status': 'survives' },
  'next-closed-world': { 'new optional field (expires-at)': 'survives', 'new optional field (evolve a6)': 'survives', 'new enum value': 'fails', 'field made nullable': 'survives', 'field no longer required (evolve c1)': 'fails', 'newly documented status': 'fails' },
  'next-tolerant': { 'new optional field (expires-at)': 'survives', 'new optional field (evolve a6)': 'survives', 'new enum value': 'survives', 'field made nullable': 'survives', 'field no longer required (evolve c1)': 'survives', 'newly documented status': 'survives' },
};

interface Report {
  failures: Array<{ minimal: string[] }>;
  dimensionsSeen: string[];
  survived?: string[];
}

async function robustness(client: string, next: string, name: string): Promise<{ code: number; report: Report; out: string }> {
  const json = join(dir, `${client}-${name.replace(/\W+/g, '-')}.json`);
  const lines: string[] = [];
  const argv = ['--contract', next, '--runs', '4', '--seed', '39', '--json', json, '--', ...CLIENT_NODE, join(CLIENTS, `${client}.cjs`)];
  const code = await runRobustnessCommand(argv, { PATH: process.env['PATH'] }, { out: (text) => lines.push(text), err: (text) => lines.push(text) });
  let report: Report = { failures: [], dimensionsSeen: [] };
  try {
    report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  } catch {
    // No report: the exit code's assertion shows the runner's own words.
  }
  return { code, report, out: lines.join('\n') };
}

const cells = Object.entries(TABLE).flatMap(([client, row]) => Object.entries(row).map(([edit, cell]) => [client, edit, cell] as const));

describe('robustness --contract NEXT: clients × additive edits', { timeout: 120_000, concurrent: true }, () => {
  it.each(cells)('%s under %s: %s', async (client, edit, cell) => {
    const { next, dimensions } = EDITS[edit]!;
    const { code, report, out } = await robustness(client, next(), `${edit}`);
    expect(report.dimensionsSeen.length, out).toBeGreaterThan(0);
    expect(report.dimensionsSeen.every((name) => dimensions.test(name)), `only the edit's own changes are varied: ${report.dimensionsSeen.join(', ')}`).toBe(true);
    if (cell === 'fails') {
      expect(code, out).toBe(1);
      expect(report.failures.length, out).toBeGreaterThan(0);
      for (const failure of report.failures) {
        expect(failure.minimal, out).toHaveLength(1);
        expect(failure.minimal[0], out).toMatch(dimensions);
      }
    } else {
      expect({ code, failures: report.failures }, out).toEqual({ code: 0, failures: [] });
      expect(report.survived, out).toEqual(report.dimensionsSeen.toSorted());
      expect(out).toContain(`survived ${report.dimensionsSeen.length} change`);
    }
  });
});

describe('robustness --contract: bad input', () => {
  const run = async (argv: string[]) => {
    const lines: string[] = [];
    const code = await runRobustnessCommand(argv, { PATH: process.env['PATH'] }, { out: (text) => lines.push(text), err: (text) => lines.push(text) });
    return { code, out: lines.join('\n') };
  };
  const tolerant = [...CLIENT_NODE, join(CLIENTS, 'next-tolerant.cjs')];

  it.each([
    ['a NEXT --contract refuses (a remote $ref)', ['--contract', join(CONTRACTS, 'remote-ref.yaml')], /^shortlink-mock robustness: cannot serve --contract .*remote-ref\.yaml: .*is not local/],
    ['a NEXT that is not YAML', ['--contract', join(CONTRACTS, 'not-yaml.yaml')], /^shortlink-mock robustness: cannot serve --contract .*not-yaml\.yaml: not YAML or JSON/],
    ['a NEXT that is not there', ['--contract', join(dir, 'missing.yaml')], /^shortlink-mock robustness: cannot serve --contract .*missing\.yaml: no such file$/],
    ['--from without --contract', ['--from', join(CONTRACTS, 'expires-at.yaml')], /^shortlink-mock robustness: --from is the contract --contract NEXT is measured against: give --contract NEXT too/],
    ['--contract with --base-url', ['--contract', join(CONTRACTS, 'expires-at.yaml'), '--base-url', 'http://127.0.0.1:9'], /^shortlink-mock robustness: --contract NEXT starts a mock of its own serving NEXT: drop --base-url/],
    ['a NEXT that newly allows nothing an answer shows', ['--contract', join(CONTRACTS, 'slug-max-20.yaml')], /^shortlink-mock robustness: .*slug-max-20\.yaml newly allows nothing an answer can show against the shipped openapi\.yaml/],
  ])('%s: exit 2, one line', async (_name, flags, line) => {
    const { code, out } = await run([...flags, '--runs', '1', '--', ...tolerant]);
    expect(code, out).toBe(2);
    expect(out.split('\n'), out).toHaveLength(1);
    expect(out).toMatch(line);
  });
});
