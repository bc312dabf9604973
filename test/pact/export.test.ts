// buildPact (src/pact/export.ts): journal entries and accounts in, a Pact V3 file out. Table tests
// over entries shaped as the mock records them (src/core/journal.ts).
import { describe, expect, it } from 'vitest';
import { maskApiKey, type JournalEntry } from '../../src/core/journal.js';
import { buildPact, ExportError, type ExportInput } from '../../src/pact/export.js';

const ACCOUNTS = [
  { id: 'acc_demo', apiKey: 'demo-key' },
  { id: 'acc_other', apiKey: 'other-key' },
];
const LINK = {
  id: 'lnk_1',
  createdAt: '2026-11-23T10:00:00.000Z',
  destinationUrl: 'https://example.com/a',
  title: 'A',
  slug: 'spring',
  domain: { id: 'dom_1', name: 'go.acme.test' },
  shortUrl: 'https://go.acme.test/spring',
  clickCount: 0,
  tags: [{ id: 'tag_1', name: 'launch' }],
};

let seq = 0;
function entry(fields: Partial<JournalEntry>): JournalEntry {
  seq += 1;
  return {
    seq, time: '2026-11-23T10:00:00.000Z', method: 'POST', path: '/links', operationId: 'createLink', apiKey: 'demo****', accountId: 'acc_demo',
    status: 201, durationMs: 1, scenario: null, fault: null, verdict: 'ok', requestBody: null, responseBody: null, ...fields,
  };
}
const create = (body: object, status = 201, responseBody: unknown = LINK, accountId: string | null = 'acc_demo') => entry({ requestBody: body, status, responseBody, accountId });
const input = (entries: JournalEntry[], extra: Partial<ExportInput> = {}): ExportInput => ({ consumer: 'web', provider: 'api', entries, accounts: ACCOUNTS, version: '0.1.0', source: 'http://mock/__admin/requests', ...extra });
const CREATE_BODY = { destinationUrl: 'https://example.com/a', domain: 'go.acme.test', slug: 'spring', tags: [{ name: 'launch' }] };

describe('buildPact', () => {
  it('counts only answered API operations without a scenario, a bad verdict, a proxy violation, a preview body or a gone account', () => {
    const { pact, used, skipped } = buildPact(input([
      create(CREATE_BODY),
      entry({ operationId: null, path: '/nope', status: 404 }),
      entry({ scenario: 'not-found', status: 404 }),
      entry({ status: null, fault: 'reset', verdict: 'fault' }),
      entry({ verdict: 'contract-violation', status: 500 }),
      entry({ violations: [{ side: 'response', rule: 'r' }] }),
      entry({ requestBody: { truncated: true, chars: 9000, preview: '{' } }),
      entry({ accountId: 'acc_gone' }),
      // A body refused unread (1,001 fields): the journal kept none, so the pact could not send it again (black-box sweep, stop 54).
      entry({ status: 400, verdict: 'invalid-request', requestBody: null, responseBody: { errorDescription: 'request body has more than 1000 fields, the limit of this server' } }),
    ]));
    expect(pact.interactions).toHaveLength(1);
    expect(used).toBe(1);
    expect(skipped["a refused request body the journal did not keep (not JSON, or past the API's bounds)"]).toBe(1);
    expect(Object.values(skipped).reduce((a, b) => a + b, 0)).toBe(8);
    expect(Object.keys(skipped)).toEqual(expect.arrayContaining(['shaped by a scenario', 'verdict contract-violation', 'its account is gone (a reset since?)']));
  });

  it('one interaction per operation × status × code, the first seen, in journal order', () => {
    const limit = { errorDescription: 'The account has reached its limit of 5 links', code: 'LINK_LIMIT_REACHED' };
    const { pact } = buildPact(input([
      create(CREATE_BODY),
      create({ ...CREATE_BODY, slug: 'other' }),
      create({ domain: 'short.test', tags: [] }, 400, { errorDescription: "request body: missing 'destinationUrl'" }),
      create(CREATE_BODY, 400, limit),
      create(CREATE_BODY, 400, limit),
    ]));
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual(['createLink answered 201', 'createLink answered 400', 'createLink answered 400 LINK_LIMIT_REACHED']);
    expect(pact.interactions[0]?.request.body).toEqual(CREATE_BODY);
    expect(pact.metadata.pactSpecification.version).toBe('3.0.0');
  });

  it("sends the account's real key; a key that named no account as the journal masked it; no key as none", () => {
    const unauthorized = { errorDescription: 'The x-api-key header names no account' };
    const { pact } = buildPact(input([
      entry({ method: 'PUT', path: '/links/lnk_1?x=1&x=2', operationId: 'updateLink', status: 200, requestBody: { tags: [] }, responseBody: LINK }),
      entry({ method: 'DELETE', path: '/links/lnk_1', operationId: 'deleteLink', apiKey: 'wron*****', accountId: null, status: 401, responseBody: unauthorized }),
      entry({ apiKey: null, accountId: null, status: 401, requestBody: CREATE_BODY, responseBody: unauthorized }),
    ]));
    const [update, wrongKey, noKey] = pact.interactions;
    expect(update?.request).toEqual({ method: 'PUT', path: '/links/lnk_1', query: { x: ['1', '2'] }, headers: { 'x-api-key': 'demo-key', 'Content-Type': 'application/json' }, body: { tags: [] } });
    expect(wrongKey?.request).toEqual({ method: 'DELETE', path: '/links/lnk_1', headers: { 'x-api-key': 'wron*****' } });
    expect(noKey?.request.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(wrongKey?.providerStates).toBeUndefined();
  });

  it('keeps query parameters named as JavaScript object members (__proto__, constructor, ...) as the client sent them (issue 23)', () => {
    const path = '/links/lnk_1?constructor=1&__proto__=2&hasOwnProperty=3&toString=4&toString=5';
    const { pact } = buildPact(input([entry({ method: 'PUT', path, operationId: 'updateLink', status: 200, requestBody: { tags: [] }, responseBody: LINK })]));
    const query = pact.interactions[0]?.request.query ?? {};
    expect(Object.entries(query)).toEqual([['constructor', ['1']], ['__proto__', ['2']], ['hasOwnProperty', ['3']], ['toString', ['4', '5']]]);
    expect(JSON.parse(JSON.stringify(pact)).interactions[0].request.query).toEqual(JSON.parse('{"constructor":["1"],"__proto__":["2"],"hasOwnProperty":["3"],"toString":["4","5"]}'));
  });

  it('expects the Link the contract requires, generated values by type or pattern, what the client chose exactly', () => {
    const { pact } = buildPact(input([create(CREATE_BODY)]));
    const response = pact.interactions[0]?.response;
    expect(response?.body).toEqual({ id: 'lnk_1', createdAt: LINK.createdAt, destinationUrl: LINK.destinationUrl, slug: 'spring', domain: LINK.domain, shortUrl: LINK.shortUrl, tags: LINK.tags });
    expect(Object.keys(response?.matchingRules?.body ?? {})).toEqual(['$.id', '$.createdAt', '$.slug', '$.domain.id', '$.shortUrl', '$.tags[*].id']);
    expect(response?.matchingRules?.body?.['$.createdAt']?.matchers[0]).toMatchObject({ match: 'regex' });
    expect(response?.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('expects an Error by its type and its code exactly; a 204 without body or headers', () => {
    const { pact } = buildPact(input([
      create(CREATE_BODY, 400, { errorDescription: 'The account has reached its limit of 5 links', code: 'LINK_LIMIT_REACHED' }),
      entry({ method: 'DELETE', path: '/links/lnk_1', operationId: 'deleteLink', status: 204 }),
    ]));
    expect(pact.interactions[0]?.response).toEqual({
      status: 400,
      headers: { 'Content-Type': 'application/json' },
      body: { errorDescription: 'The account has reached its limit of 5 links', code: 'LINK_LIMIT_REACHED' },
      matchingRules: { body: { '$.errorDescription': { matchers: [{ match: 'type' }] } } },
    });
    expect(pact.interactions[1]?.response).toEqual({ status: 204 });
  });

  it('--api-key: only that key’s exchanges; a key no account has is refused', () => {
    const { pact, skipped } = buildPact(input([create(CREATE_BODY, 201, LINK, 'acc_other'), create(CREATE_BODY, 400, { errorDescription: 'x' }), entry({ accountId: null, apiKey: null, status: 401, responseBody: { errorDescription: 'x' } })], { apiKey: 'other-key' }));
    expect(pact.interactions.map((interaction) => interaction.request.headers?.['x-api-key'])).toEqual(['other-key']);
    expect(skipped).toEqual({ 'another API key (--api-key)': 2 });
    expect(() => buildPact(input([], { apiKey: 'nobody' }))).toThrow(ExportError);
  });

  it('proxied entries carry only a masked key: left out, unless --api-key names the key whose mask it is', () => {
    const proxied = entry({ apiKey: maskApiKey('stage-key-1'), accountId: null, requestBody: CREATE_BODY, responseBody: LINK });
    const without = buildPact(input([proxied]));
    expect(without.pact.interactions).toEqual([]);
    expect(Object.keys(without.skipped)).toEqual([expect.stringMatching(/masked API key .* --api-key/)]);
    const { pact } = buildPact(input([proxied], { apiKey: 'stage-key-1' }));
    expect(pact.interactions[0]?.request.headers?.['x-api-key']).toBe('stage-key-1');
    expect(pact.interactions[0]?.providerStates?.[0]?.name).toBe('an account with API key stage-key-1');
  });

  it('is the same file for the same journal', () => {
    const entries = [create(CREATE_BODY), create(CREATE_BODY, 404, { errorDescription: "domain 'x' not found" })];
    expect(JSON.stringify(buildPact(input(entries)))).toBe(JSON.stringify(buildPact(input(entries))));
  });
});
