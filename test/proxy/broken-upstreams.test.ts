// The validating proxy in front of each deliberately broken server of test/broken-servers/: every
// break that shows in an exchange is flagged, on the side that broke the contract, with the
// upstream's answer passed through unchanged; in strict mode the same answer becomes a 502 Error
// object naming the violation. The breaks that only show across several exchanges (isolation,
// limits, uniqueness, a delete that keeps the link) are the contract command's to find: each of
// their answers keeps the contract, so the proxy must flag none of them (no false alarms).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type JournalEntry, type RunningMock } from '../../src/index.js';
import { BROKEN_SERVERS } from '../broken-servers/catalogue.js';

interface Exchange {
  method: string;
  path: string | ((created: string) => string);
  key?: string;
  body?: unknown;
}

const link = { destinationUrl: 'https://example.com/p', domain: 'short.test', tags: [] };
const create: Exchange = { method: 'POST', path: '/links', key: 'demo-key', body: link };

/** For each break an exchange shows: what to send (after creating a link, whose id `path` may use) and what must be flagged. */
const SHOWN: Record<string, { send: Exchange; side: 'request' | 'response'; rule: RegExp; alsoResponse?: RegExp }> = {
  'createdAt-not-date-time': { send: create, side: 'response', rule: /^body does not match Link: body\.createdAt must match format "date-time"$/ },
  'clickCount-string': { send: create, side: 'response', rule: /body\.clickCount must be integer/ },
  'create-200': { send: create, side: 'response', rule: /^status 200 is not documented for createLink/ },
  'delete-200-with-body': { send: { method: 'DELETE', path: (id) => `/links/${id}`, key: 'demo-key' }, side: 'response', rule: /^status 200 is not documented for deleteLink/ },
  'error-without-errorDescription': { send: { method: 'POST', path: '/links', body: link }, side: 'response', rule: /missing required field 'errorDescription'/ },
  'accepts-missing-destinationUrl': {
    send: { method: 'POST', path: '/links', key: 'demo-key', body: { domain: 'short.test', tags: [] } },
    side: 'request',
    rule: /missing required field 'destinationUrl'/,
    alsoResponse: /^createLink answered 201 to a request the contract refuses/,
  },
  'html-404': { send: { method: 'DELETE', path: '/links/lnk_nope', key: 'demo-key' }, side: 'response', rule: /^content type is 'text\/html; charset=utf-8', expected application\/json for deleteLink 404$/ },
  'no-shortUrl': { send: create, side: 'response', rule: /missing required field 'shortUrl'/ },
};

/** Breaks of behaviour across exchanges: each answer alone keeps the contract. */
const ACROSS_EXCHANGES = BROKEN_SERVERS.map((server) => server.name).filter((name) => !(name in SHOWN));

let upstreams: Map<string, Server>;

beforeAll(async () => {
  upstreams = new Map(await Promise.all(BROKEN_SERVERS.map(async (server) => [server.name, await listen(server.app())] as const)));
});

afterAll(async () => {
  await Promise.all([...(upstreams?.values() ?? [])].map((server) => new Promise((done) => server.close(done))));
});

it('covers every broken server of the catalogue, one way or the other', () => {
  expect([...Object.keys(SHOWN), ...ACROSS_EXCHANGES].sort()).toEqual(BROKEN_SERVERS.map((server) => server.name).sort());
  expect(ACROSS_EXCHANGES.length).toBeLessThan(BROKEN_SERVERS.length);
});

describe.each(Object.entries(SHOWN))('in front of %s', (name, shown) => {
  it(`flags it on the ${shown.side} side and passes the answer on unchanged`, async () => {
    const { proxy, stop } = await proxyTo(name, false);
    try {
      const direct = await send(upstreamUrl(name), shown.send);
      const proxied = await send(proxy.url, shown.send);
      expect(proxied.status).toBe(direct.status);
      expect(proxied.contentType).toBe(direct.contentType);
      expect(normalised(proxied.text)).toBe(normalised(direct.text));
      const entry = await lastEntry(proxy);
      const rules = (entry.violations ?? []).filter((violation) => violation.side === shown.side).map((violation) => violation.rule);
      expect(rules.some((rule) => shown.rule.test(rule)), rules.join('\n')).toBe(true);
      if (shown.alsoResponse) expect(entry.violations?.some((violation) => violation.side === 'response' && shown.alsoResponse?.test(violation.rule))).toBe(true);
      expect(Number(proxied.violationsHeader)).toBe(entry.violations?.length);
      expect(entry.verdict).toBe(shown.side === 'response' || shown.alsoResponse ? 'contract-violation' : 'invalid-request');
    } finally {
      await stop();
    }
  });

  if (shown.side === 'response' || shown.alsoResponse) {
    it('in strict mode answers 502 with an Error object naming the violation', async () => {
      const { proxy, stop } = await proxyTo(name, true);
      try {
        const proxied = await send(proxy.url, shown.send);
        expect(proxied.status).toBe(502);
        const body = JSON.parse(proxied.text) as { errorDescription: string };
        expect(Object.keys(body)).toEqual(['errorDescription']);
        expect(body.errorDescription).toMatch(/breaks the contract \(--proxy-strict\)/);
        expect(body.errorDescription).toMatch(unanchored(shown.alsoResponse ?? shown.rule));
      } finally {
        await stop();
      }
    });
  }
});

describe.each(ACROSS_EXCHANGES)('in front of %s (a break across exchanges)', (name) => {
  it('flags none of the single answers, which each keep the contract', async () => {
    const { proxy, stop } = await proxyTo(name, false);
    try {
      const created = await send(proxy.url, create);
      expect(created.status).toBe(201);
      const id = (JSON.parse(created.text) as { id: string }).id;
      await send(proxy.url, { method: 'PUT', path: `/links/${id}`, key: 'demo-key', body: { destinationUrl: 'https://example.com/q' } });
      await send(proxy.url, { method: 'POST', path: '/links', key: 'limited-key', body: link });
      await send(proxy.url, { method: 'DELETE', path: `/links/${id}`, key: 'other-key' });
      await send(proxy.url, { method: 'DELETE', path: `/links/${id}`, key: 'demo-key' });
      const entries = await proxy.journal();
      expect(entries).toHaveLength(5);
      expect(entries.flatMap((entry) => entry.violations ?? [])).toEqual([]);
    } finally {
      await stop();
    }
  });
});

/** A proxy of its own per test: one upstream each, so journals never mix. */
async function proxyTo(name: string, strictMode: boolean): Promise<{ proxy: RunningMock; stop: () => Promise<void> }> {
  const proxy = await startMock({ proxy: upstreamUrl(name), proxyStrict: strictMode, journalSize: 100 });
  return { proxy, stop: () => proxy.stop() };
}

function upstreamUrl(name: string): string {
  const server = upstreams.get(name);
  if (!server) throw new Error(`no upstream ${name}`);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function send(base: string, exchange: Exchange): Promise<{ status: number; contentType: string | null; text: string; violationsHeader: string | null }> {
  let path = exchange.path;
  if (typeof path === 'function') {
    const created = await fetch(`${base}/links`, request(create));
    path = path((JSON.parse(await created.text()) as { id: string }).id);
  }
  const res = await fetch(`${base}${path}`, request(exchange));
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text(), violationsHeader: res.headers.get('x-contract-violations') };
}

function request(exchange: Exchange): RequestInit {
  const headers: Record<string, string> = exchange.body === undefined ? {} : { 'content-type': 'application/json' };
  if (exchange.key) headers['x-api-key'] = exchange.key;
  return { method: exchange.method, headers, ...(exchange.body === undefined ? {} : { body: JSON.stringify(exchange.body) }) };
}

/** The rule as it shows inside a sentence. */
const unanchored = (rule: RegExp): RegExp => new RegExp(rule.source.replace(/^\^/, '').replace(/\$$/, ''));

/** Two calls of one server differ in generated values only: ids, slugs, times. */
function normalised(text: string): string {
  return text.replace(/"(id|slug|createdAt|shortUrl)":"[^"]*"/g, '"$1":"…"').replace(/lnk_[\w-]+/g, 'lnk_…').replace(/(Sun|Mon|Tue|Wed|Thu|Fri|Sat), [^"]+GMT/g, 'DATE');
}

async function lastEntry(proxy: RunningMock): Promise<JournalEntry> {
  const [entry] = await proxy.journal({ limit: 1 });
  if (!entry) throw new Error('the journal is empty');
  return entry;
}

function listen(app: Parameters<typeof createServer>[1]): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(app).listen(0, '127.0.0.1', () => resolve(server));
  });
}
