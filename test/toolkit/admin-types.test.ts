// The toolkit's types of the admin API's answers name exactly the properties of their schemas in
// src/admin/openapi.yaml. Each `Record<keyof T, true>` below must list every key of T and no other
// (the compiler checks that side); the test compares those keys with the schema's.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { expect, it } from 'vitest';
import { ADMIN_CONTRACT_FILE } from '../../src/contract/package-files.js';
import type { Account, ActiveScenario, Coverage, CoverageOutcome, DistinctViolation, Health, JournalEntry, KeyCoverage, ResetResult, Snapshot, ViolationExample, ViolationGroup, ViolationReport } from '../../src/index.js';

type Keys<T> = Record<keyof T, true>;
type Schema = { properties?: Record<string, Schema>; items?: Schema };

const schemas = (parse(readFileSync(ADMIN_CONTRACT_FILE, 'utf8')) as { components: { schemas: Record<string, Schema> } }).components.schemas;
const coverageAccount = schemas['Coverage']?.properties?.['accounts']?.items;

const health: Keys<Health> = { status: true, version: true, uptimeSeconds: true, accounts: true, links: true, scenario: true };
const reset: Keys<ResetResult> = { status: true, accounts: true, links: true };
const active: Keys<ActiveScenario> = { active: true, apiKey: true, timesLeft: true };
const account: Keys<Account> = { id: true, name: true, apiKey: true, linkLimit: true, links: true, domains: true };
const coverage: Keys<Coverage> = { documented: true, accounts: true };
const keyCoverage: Keys<KeyCoverage> = { apiKey: true, accountId: true, seen: true, missing: true, unauthenticated: true };
const outcome: Keys<CoverageOutcome> = { operationId: true, status: true, code: true };
const snapshot: Keys<Snapshot> = { name: true, savedAt: true, links: true };
const violationReport: Keys<ViolationReport> = { distinct: true, dropped: true, groups: true };
const violationGroup: Keys<ViolationGroup> = { operationId: true, method: true, status: true, violations: true };
const distinctViolation: Keys<DistinctViolation> = { side: true, rule: true, count: true, firstSeen: true, lastSeen: true, example: true };
const violationExample: Keys<ViolationExample> = { time: true, method: true, path: true, apiKey: true, status: true, requestBody: true, responseBody: true, detail: true };
const entry: Keys<JournalEntry> = {
  seq: true, time: true, method: true, path: true, operationId: true, apiKey: true, accountId: true, status: true,
  durationMs: true, scenario: true, fault: true, verdict: true, requestBody: true, responseBody: true, violations: true, violationsNotKept: true, upstream: true, variety: true, headers: true, generated: true, generatedFields: true,
};

it.each([
  ['Health', health, schemas['Health']],
  ['ResetResult', reset, schemas['ResetResult']],
  ['ActiveScenario', active, schemas['ActiveScenario']],
  ['Account', account, schemas['Account']],
  ['Coverage', coverage, schemas['Coverage']],
  ['KeyCoverage (Coverage.accounts[])', keyCoverage, coverageAccount],
  ['Snapshot', snapshot, schemas['Snapshot']],
  ['JournalEntry', entry, schemas['JournalEntry']],
  ['ViolationReport', violationReport, schemas['ViolationReport']],
  ['ViolationGroup', violationGroup, schemas['ViolationGroup']],
  ['DistinctViolation', distinctViolation, schemas['DistinctViolation']],
  ['ViolationExample', violationExample, schemas['ViolationExample']],
])('%s names exactly the properties of its schema', (_name, keys, schema) => {
  expect(Object.keys(keys).sort()).toEqual(Object.keys(schema?.properties ?? {}).sort());
});

it('Outcome names the schema\'s properties but `count`, which only seen outcomes carry (KeyCoverage.seen)', () => {
  expect([...Object.keys(outcome), 'count'].sort()).toEqual(Object.keys(schemas['Outcome']?.properties ?? {}).sort());
});
