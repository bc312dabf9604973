// The provider-state names: written by `pact export` and read back by POST /__admin/provider-states.
import { describe, expect, it } from 'vitest';
import { parseStateName, PROVIDER_STATES, stateName, type ProviderStateKind } from '../../src/core/provider-state-names.js';

const VALUES: Record<ProviderStateKind, Record<string, string>> = {
  account: { apiKey: 'demo-key' },
  roomForLink: { apiKey: 'a key with spaces' },
  atLinkLimit: { apiKey: 'limited-key' },
  link: { id: 'lnk_V2xq9TbL3mKz8RcA', apiKey: 'demo-key' },
  noLink: { id: 'lnk_gone' },
  slugTaken: { slug: 'pricing', domain: 'go.acme.test' },
  slugFree: { slug: 'spring-sale', domain: 'short.test' },
};

describe('provider state names', () => {
  it.each(Object.keys(PROVIDER_STATES) as ProviderStateKind[])('%s: the name written is read back with its values', (kind) => {
    const name = stateName(kind, VALUES[kind]);
    expect(name).not.toMatch(/[{}]/);
    expect(parseStateName(name)).toEqual({ kind, values: VALUES[kind] });
  });

  it.each([
    ['an account with API key demo-key', { kind: 'account', values: { apiKey: 'demo-key' } }],
    ['the account of demo-key has reached its link limit', { kind: 'atLinkLimit', values: { apiKey: 'demo-key' } }],
    ['a link lnk_1 exists for the account of other-key', { kind: 'link', values: { id: 'lnk_1', apiKey: 'other-key' } }],
    ['the moon is full', undefined],
    ['no link', undefined],
    ['', undefined],
  ])('%j', (name, expected) => {
    expect(parseStateName(name)).toEqual(expected);
  });

  it('a value is required for each placeholder', () => {
    expect(() => stateName('link', { id: 'lnk_1' })).toThrow(/apiKey/);
  });
});
