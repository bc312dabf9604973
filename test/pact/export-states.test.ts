// The provider states of exported interactions (src/pact/export-states.ts): for each outcome, what
// must hold at the provider for the same request to have it again.
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/journal.js';
import { providerStatesFor } from '../../src/pact/export-states.js';

const LINK = {
  id: 'lnk_1', createdAt: '2026-11-23T10:00:00.000Z', destinationUrl: 'https://example.com/before', slug: 'spring',
  domain: { id: 'dom_1', name: 'go.acme.test' }, shortUrl: 'https://go.acme.test/spring', clickCount: 0, tags: [{ id: 'tag_1', name: 'launch' }],
};
const base: JournalEntry = {
  seq: 1, time: '', method: 'POST', path: '/links', operationId: 'createLink', apiKey: 'demo****', accountId: 'acc_demo', status: 201,
  durationMs: 1, scenario: null, fault: null, verdict: 'ok', requestBody: null, responseBody: null,
};
const at = (seq: number, fields: Partial<JournalEntry>): JournalEntry => ({ ...base, seq, ...fields });
const names = (entry: JournalEntry, history: JournalEntry[] = [], code: string | null = null) => providerStatesFor(entry, 'demo-key', code, history).map((state) => state.name);
const ACCOUNT = 'an account with API key demo-key';
const ROOM = 'the account of demo-key has room for a link';

describe('providerStatesFor', () => {
  it.each([
    ['a create with a slug (201)', at(1, { requestBody: { destinationUrl: 'https://e.com', domain: 'short.test', slug: 's1', tags: [] } }), null, [ACCOUNT, ROOM, 'slug s1 is free in short.test']],
    ['a create with a random slug (201)', at(1, { requestBody: { destinationUrl: 'https://e.com', domain: 'short.test', tags: [] } }), null, [ACCOUNT, ROOM]],
    ['LINK_LIMIT_REACHED', at(1, { status: 400 }), 'LINK_LIMIT_REACHED', [ACCOUNT, 'the account of demo-key has reached its link limit']],
    ['slug taken (400)', at(1, { status: 400, requestBody: { domain: 'Short.Test', slug: 's1' }, responseBody: { errorDescription: "slug 's1' is already taken in domain 'short.test'" } }), null, [ACCOUNT, ROOM, 'slug s1 is taken in Short.Test']],
    ['another 400 of a create with a slug', at(1, { status: 400, requestBody: { domain: 'short.test', slug: 's1' }, responseBody: { errorDescription: "request body: missing 'tags'" } }), null, [ACCOUNT, ROOM]],
    ['an update of an unknown link (404)', at(1, { method: 'PUT', path: '/links/lnk_9', operationId: 'updateLink', status: 404 }), null, [ACCOUNT, 'no link lnk_9']],
    ['a delete (204)', at(1, { method: 'DELETE', path: '/links/lnk_1', operationId: 'deleteLink', status: 204 }), null, [ACCOUNT, 'a link lnk_1 exists for the account of demo-key']],
  ])('%s', (_title, entry, code, expected) => {
    expect(names(entry, [], code)).toEqual(expected);
  });

  it('no state for a 401: no account makes a missing or unknown key so', () => {
    expect(providerStatesFor(at(1, { status: 401, accountId: null }), undefined, null, [])).toEqual([]);
  });

  it('a create names the tags it sends by id, so they exist in the account', () => {
    const states = providerStatesFor(at(1, { requestBody: { destinationUrl: 'https://e.com', domain: 'short.test', tags: [{ id: 'tag_7', name: 'x' }, { name: 'y' }] } }), 'demo-key', null, []);
    expect(states[0]).toEqual({ name: ACCOUNT, params: { apiKey: 'demo-key', tags: [{ id: 'tag_7', name: 'x' }] } });
  });

  it('an update (200): the link as before it, what it changed taken from the journal, the rest from its answer', () => {
    const created = at(1, { responseBody: LINK });
    const update = at(2, { method: 'PUT', path: '/links/lnk_1', operationId: 'updateLink', status: 200, requestBody: { destinationUrl: 'https://example.com/after' }, responseBody: { ...LINK, destinationUrl: 'https://example.com/after' } });
    const link = providerStatesFor(update, 'demo-key', null, [created, update])[1];
    expect(link).toEqual({
      name: 'a link lnk_1 exists for the account of demo-key',
      params: { id: 'lnk_1', apiKey: 'demo-key', slug: 'spring', domain: 'go.acme.test', destinationUrl: 'https://example.com/before', tags: LINK.tags },
    });
  });

  it('an update (200) whose link the journal never showed before: no destination in the state, tags as none', () => {
    const update = at(2, { method: 'PUT', path: '/links/lnk_1', operationId: 'updateLink', status: 200, requestBody: { destinationUrl: 'https://example.com/after', tags: [{ id: 'tag_1', name: 'launch' }] }, responseBody: LINK });
    const [account, link] = providerStatesFor(update, 'demo-key', null, [update]);
    expect(link?.params).toEqual({ id: 'lnk_1', apiKey: 'demo-key', slug: 'spring', domain: 'go.acme.test', tags: [] });
    expect(account?.params).toEqual({ apiKey: 'demo-key', tags: [{ id: 'tag_1', name: 'launch' }] });
  });
});
