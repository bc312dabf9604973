// Issue 38, part 4: the operations a contract FILE adds. A read of one link (getLink) and a list of
// the account's links (listLinks) are answered from the store, with the same authentication,
// isolation (another account's link is a 404, D15) and Error objects as the rule-served operations;
// any other new operation (getStats) from its schema, examples first, with x-mock-generated. On the
// project's store (memory, and Redis in the unit-redis project).
import { describe, expect, it } from 'vitest';
import { DEMO, OTHER } from '../helpers/test-app.js';
import { createNextContractApp } from '../helpers/next-contract-app.js';

const NEW_LINK = { destinationUrl: 'https://example.com/next', domain: 'short.test', tags: [{ name: 'next' }] };

describe('getLink added (get-link.yaml): one link from the store', () => {
  it('the link as createLink answered it; another account: 404 as if it did not exist; no key: 401', async () => {
    const app = await createNextContractApp('get-link.yaml');
    const created = await app.request.post('/links').set('x-api-key', DEMO).send(NEW_LINK).expect(201);
    const read = await app.request.get(`/links/${created.body.id}`).set('x-api-key', DEMO).expect(200);
    expect(read.body).toEqual(created.body);
    expect(read.headers['x-mock-generated']).toBeUndefined();
    const hidden = await app.request.get(`/links/${created.body.id}`).set('x-api-key', OTHER).expect(404);
    expect(hidden.body).toEqual({ errorDescription: `link '${created.body.id}' not found` });
    const unauthenticated = await app.request.get(`/links/${created.body.id}`).expect(401);
    expect(unauthenticated.body).toEqual({ errorDescription: 'The x-api-key header is missing' });
    await app.request.delete(`/links/${created.body.id}`).set('x-api-key', DEMO).expect(204);
    await app.request.get(`/links/${created.body.id}`).set('x-api-key', DEMO).expect(404);
  });
});

describe("listLinks added (list-links.yaml): the account's links from the store", () => {
  it("pages by limit and cursor, newest first, only the key's own links", async () => {
    const app = await createNextContractApp('list-links.yaml');
    const created = await app.request.post('/links').set('x-api-key', DEMO).send(NEW_LINK).expect(201);
    const own = (await app.linksOf(DEMO)).map((link) => link.id);
    const first = await app.request.get('/links?limit=2').set('x-api-key', DEMO).expect(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items[0]).toEqual(created.body);
    expect(typeof first.body.nextCursor).toBe('string');
    const seen = [...first.body.items];
    let cursor: string | undefined = first.body.nextCursor;
    for (let page = 0; cursor !== undefined && page < own.length; page++) {
      const next = await app.request.get(`/links?limit=2&cursor=${encodeURIComponent(cursor)}`).set('x-api-key', DEMO).expect(200);
      seen.push(...next.body.items);
      cursor = next.body.nextCursor;
    }
    expect(seen.map((link: { id: string }) => link.id).sort()).toEqual([...own].sort());
    const others = await app.request.get('/links').set('x-api-key', OTHER).expect(200);
    expect(others.body.items.some((link: { id: string }) => link.id === created.body.id)).toBe(false);
  });

  it('a limit FILE does not allow and a cursor this mock did not give: 400 Error objects; no key: 401', async () => {
    const app = await createNextContractApp('list-links.yaml');
    expect((await app.request.get('/links?limit=0').set('x-api-key', DEMO).expect(400)).body.errorDescription).toMatch(/limit/);
    expect((await app.request.get('/links?cursor=zzz').set('x-api-key', DEMO).expect(400)).body.errorDescription).toMatch(/cursor/);
    await app.request.get('/links').expect(401);
  });

  it("hostile cursors (garbage, huge, JSON of another shape, another account's): 400 Error objects, nothing changed", async () => {
    const app = await createNextContractApp('list-links.yaml');
    const others = await app.request.get('/links?limit=1').set('x-api-key', OTHER).expect(200);
    const cursors = [
      'zzz',
      '%%%',
      'A'.repeat(12_000),
      Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'lnk_x'])).toString('base64url'),
      Buffer.from(JSON.stringify({ createdAt: 'x', id: 'y' })).toString('base64url'),
      Buffer.from('['.repeat(5_000)).toString('base64url'),
      others.body.nextCursor as string,
    ];
    const before = (await app.linksOf(DEMO)).length;
    for (const cursor of cursors) {
      const answer = await app.request.get(`/links?cursor=${encodeURIComponent(cursor)}`).set('x-api-key', DEMO).expect(400);
      expect(answer.body).toEqual({ errorDescription: expect.stringMatching(/^query: 'cursor' is not one this mock gave/) });
    }
    expect((await app.linksOf(DEMO)).length).toBe(before);
  });
});

describe('a cursor this mock did not give, when FILE documents no 400 for the list (issue 40)', () => {
  it('with a 422 documented: a 422 Error object, not a 500', async () => {
    const app = await createNextContractApp('list-links-422.yaml');
    const answer = await app.request.get('/links?cursor=zzz').set('x-api-key', DEMO);
    expect([answer.status, answer.body.errorDescription]).toEqual([422, expect.stringMatching(/cursor/)]);
  });

  it("with a 422 documented: a request FILE's own validation refuses (limit below its minimum) is a 422 too, not an undocumented 400", async () => {
    const app = await createNextContractApp('list-links-422.yaml');
    const answer = await app.request.get('/links?limit=0').set('x-api-key', DEMO);
    expect([answer.status, answer.body.errorDescription]).toEqual([422, expect.stringMatching(/limit/)]);
  });

  it('with no 4xx but the 401 documented: the first page, as with no cursor', async () => {
    const app = await createNextContractApp('list-links-no-400.yaml');
    const first = await app.request.get('/links?limit=3').set('x-api-key', DEMO).expect(200);
    const answer = await app.request.get('/links?limit=3&cursor=zzz').set('x-api-key', DEMO);
    expect([answer.status, answer.body]).toEqual([200, first.body]);
    // A cursor this mock gave still pages.
    const next = await app.request.get(`/links?limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`).set('x-api-key', DEMO).expect(200);
    expect(next.body.items[0].id).not.toBe(first.body.items[0].id);
  });
});

describe('getStats added (stats-added.yaml): answered from its schema', () => {
  it('examples first, else a sample, valid against FILE, with x-mock-generated: getStats; still authenticated', async () => {
    const app = await createNextContractApp('stats-added.yaml');
    const answer = await app.request.get('/stats').set('x-api-key', DEMO).expect(200);
    expect(answer.headers['x-mock-generated']).toBe('getStats');
    expect(answer.body).toEqual({ links: 12, clicks: 0, period: 'day' });
    await app.request.get('/stats').expect(401);
    // The journal says the same; a rule's answer says nothing of it.
    await app.request.post('/links').set('x-api-key', DEMO).send(NEW_LINK).expect(201);
    const journal = await app.request.get('/__admin/requests').expect(200);
    const [stats, refused, created] = journal.body.entries as { operationId: string; status: number; generated?: string }[];
    expect([created?.operationId, created?.generated]).toEqual(['createLink', undefined]);
    expect([refused?.status, refused?.generated]).toEqual([401, undefined]);
    expect([stats?.operationId, stats?.generated]).toEqual(['getStats', 'getStats']);
  });
});
