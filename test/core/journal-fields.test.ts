// The journal's per-request fields made without a regular expression per header and without
// masking the same key again: the same verdicts as the rules they stand for.
import { describe, expect, test } from 'vitest';
import { clientHeaders, Journal, maskApiKey } from '../../src/core/journal.js';
import type { NewJournalEntry } from '../../src/core/journal-types.js';

/** The rule as written before (user-agent and the x-client-* family), judged by its regular expression. */
const CLIENT_HEADER = /^(?:user-agent|x-client-[a-z0-9-]+)$/;

describe('clientHeaders', () => {
  test('keeps exactly the names the rule names, whatever their spelling', () => {
    const names = ['user-agent', 'user-agent2', 'xuser-agent', 'User-Agent', 'x-client-', 'x-client-a', 'x-client-web-1', 'x-client-a_b', 'x-client-A', 'x-client-a b', 'x-clientx', 'x-client', 'x-api-key', 'host', 'x-client--', 'x-client-é'];
    const headers = Object.fromEntries(names.map((name) => [name, 'v']));
    const kept = Object.keys(clientHeaders(headers) ?? {});
    expect(kept).toEqual(names.filter((name) => CLIENT_HEADER.test(name)).slice(0, 8));
  });
});

describe('maskApiKey', () => {
  test('masks each key as its own, whether or not it was the last one masked', () => {
    const keys = ['demo-key', 'demo-key', 'other-key', '', 'ab', 'demo-key', 'a-very-long-key-of-a-client'];
    const expected = ['demo****', 'demo****', 'othe*****', '***', 'a***', 'demo****', `a-ve${'*'.repeat(23)}`];
    expect(keys.map(maskApiKey)).toEqual(expected);
  });
});

describe('Journal.add', () => {
  const plain: NewJournalEntry = { time: '2026-11-29T05:00:00.000Z', method: 'POST', path: '/links', operationId: 'createLink', apiKey: 'demo****', accountId: 'acc_1', status: 201, durationMs: 1.25, scenario: null, fault: null, verdict: 'ok', requestBody: { a: 1 }, responseBody: { b: 2 }, variety: null };
  const full: NewJournalEntry = { ...plain, headers: { 'user-agent': 'x' }, violations: [], violationsNotKept: 2, upstream: { status: 502 } as NewJournalEntry['upstream'], generatedFields: ['f'] };
  const sparse = Object.fromEntries(Object.entries(plain).filter(([name]) => name !== 'variety')) as NewJournalEntry;

  test('keeps every field of an entry, numbered first, in the order it came: as { seq, ...entry } did', () => {
    const journal = new Journal(10);
    for (const [n, entry] of [plain, full, sparse, { ...plain, generated: 'g' }].entries()) {
      const stored = journal.add(entry);
      expect(JSON.stringify(stored)).toBe(JSON.stringify({ seq: n + 1, ...entry }));
      expect(stored).toStrictEqual({ seq: n + 1, ...entry });
    }
  });
});
