// The journal's per-request fields made without a regular expression per header and without
// masking the same key again: the same verdicts as the rules they stand for.
import { describe, expect, test } from 'vitest';
import { clientHeaders, maskApiKey } from '../../src/core/journal.js';

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
