// Issue 38, part 3: the Link fields a contract FILE adds are made from their schemas (example first,
// else format, enum, pattern under the seed) and STORED with the link, so every answer shows the
// same values and validates against FILE; a request field that Link also has is stored from the
// request and changed by an update; a field FILE removes is not sent. On the project's store (memory,
// and Redis in the unit-redis project): the values are read back from the store itself.
import { describe, expect, it } from 'vitest';
import { createTestApp, DEMO } from '../helpers/test-app.js';
import { createNextContractApp } from '../helpers/next-contract-app.js';

const NEW_LINK = { destinationUrl: 'https://example.com/next', domain: 'short.test', tags: [] };

describe('a required field added to Link (required-field.yaml): made from its schema, stored', () => {
  it('enum (its first value), format uri, and a pattern drawn under the seed; the same on every answer and in the store', async () => {
    const app = await createNextContractApp('required-field.yaml');
    const created = await app.request.post('/links').set('x-api-key', DEMO).send(NEW_LINK).expect(201);
    expect(created.body).toMatchObject({ status: 'active', qrCode: 'http://example.com' });
    expect(created.body.campaignCode).toMatch(/^[A-Z]{3}-[0-9]{4}$/);
    const values = { status: created.body.status, qrCode: created.body.qrCode, campaignCode: created.body.campaignCode };
    const updated = await app.request.put(`/links/${created.body.id}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/again' }).expect(200);
    expect(updated.body).toMatchObject(values);
    expect((await app.store.linkById(created.body.id))?.extra).toEqual(values);
    const listed = await app.request.get('/__admin/links?account=demo-key').expect(200);
    expect(listed.body.links.find((link: { id: string }) => link.id === created.body.id)).toMatchObject(values);
  });

  it('under variety mode, a new field with a pattern of its own is not varied out of it: every answer keeps FILE', async () => {
    const app = await createNextContractApp('required-field.yaml', { variety: { seed: 7 } });
    for (let request = 0; request < 20; request++) {
      const created = await app.request.post('/links').set('x-api-key', DEMO).send(NEW_LINK).expect(201);
      expect(created.body.campaignCode).toMatch(/^[A-Z]{3}-[0-9]{4}$/);
    }
  });

  it('a link stored before (a seeded one) answers values made the same way, the same at every answer', async () => {
    const app = await createNextContractApp('required-field.yaml');
    const [seeded] = await app.linksOf(DEMO);
    const first = await app.request.put(`/links/${seeded?.id}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/a' }).expect(200);
    const second = await app.request.put(`/links/${seeded?.id}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/b' }).expect(200);
    expect(first.body.campaignCode).toMatch(/^[A-Z]{3}-[0-9]{4}$/);
    expect(second.body.campaignCode).toBe(first.body.campaignCode);
  });
});

describe('expiresAt added to Link and to the create and update requests (expires-at.yaml)', () => {
  it('sent: stored and returned; an update changes it; not sent: the example of its schema', async () => {
    const app = await createNextContractApp('expires-at.yaml');
    const created = await app.request.post('/links').set('x-api-key', DEMO).send({ ...NEW_LINK, expiresAt: '2027-05-01T00:00:00.000Z' }).expect(201);
    expect(created.body.expiresAt).toBe('2027-05-01T00:00:00.000Z');
    const updated = await app.request.put(`/links/${created.body.id}`).set('x-api-key', DEMO).send({ expiresAt: '2028-01-01T00:00:00.000Z' }).expect(200);
    expect(updated.body.expiresAt).toBe('2028-01-01T00:00:00.000Z');
    expect(updated.body.destinationUrl).toBe(NEW_LINK.destinationUrl);
    expect((await app.store.linkById(created.body.id))?.extra).toEqual({ expiresAt: '2028-01-01T00:00:00.000Z' });
    const plain = await app.request.post('/links').set('x-api-key', DEMO).send(NEW_LINK).expect(201);
    expect(plain.body.expiresAt).toBe('2027-01-31T23:59:59.000Z');
  });

  it("the rules' refusal of unknown fields reads the contract: FILE's new field is taken, any other still refused", async () => {
    const next = await createNextContractApp('expires-at.yaml');
    const shipped = await createTestApp();
    const refused = await shipped.request.post('/links').set('x-api-key', DEMO).send({ ...NEW_LINK, expiresAt: '2027-05-01T00:00:00.000Z' }).expect(400);
    expect(refused.body.errorDescription).toBe("request body: unknown field 'expiresAt'");
    const unknown = await next.request.post('/links').set('x-api-key', DEMO).send({ ...NEW_LINK, expiresOn: 'soon' }).expect(400);
    expect(unknown.body.errorDescription).toBe("request body: unknown field 'expiresOn'");
    const malformed = await next.request.post('/links').set('x-api-key', DEMO).send({ ...NEW_LINK, expiresAt: 'next tuesday' }).expect(400);
    expect(malformed.body.errorDescription).toMatch(/expiresAt/);
  });
});

describe('an optional field removed from Link (title-removed.yaml)', () => {
  it('is not sent, not even for the seeded links that have one', async () => {
    const app = await createNextContractApp('title-removed.yaml');
    const stored = (await app.linksOf(DEMO)).find((link) => link.title !== undefined);
    expect(stored, 'a seeded link with a title').toBeDefined();
    const updated = await app.request.put(`/links/${stored?.id}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/t' }).expect(200);
    expect(updated.body).not.toHaveProperty('title');
    const listed = await app.request.get('/__admin/links?account=demo-key').expect(200);
    expect(listed.body.links.some((link: object) => 'title' in link)).toBe(false);
  });
});

describe('the answers that hold Link fields made from the schema say so: x-mock-generated and the journal (issue 38, item 3)', () => {
  it('create and update name the generated fields; an error answer and a delete do not', async () => {
    const app = await createNextContractApp('required-field.yaml');
    const named = 'Link.status, Link.qrCode, Link.campaignCode';
    const created = await app.request.post('/links').set('x-api-key', DEMO).send(NEW_LINK).expect(201);
    expect(created.headers['x-mock-generated']).toBe(named);
    const updated = await app.request.put(`/links/${created.body.id}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/again' }).expect(200);
    expect(updated.headers['x-mock-generated']).toBe(named);
    const missing = await app.request.put('/links/lnk_nothere').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/again' }).expect(404);
    expect(missing.headers['x-mock-generated']).toBeUndefined();
    await app.request.delete(`/links/${created.body.id}`).set('x-api-key', DEMO).expect(204).expect((answer) => expect(answer.headers['x-mock-generated']).toBeUndefined());
    const journal = await app.request.get('/__admin/requests').expect(200);
    const entries = (journal.body.entries as { operationId: string; status: number; generatedFields?: string[] }[]).filter((entry) => entry.operationId !== null);
    expect(entries.map((entry) => [entry.operationId, entry.status, entry.generatedFields])).toEqual([
      ['createLink', 201, named.split(', ')],
      ['updateLink', 200, named.split(', ')],
      ['updateLink', 404, undefined],
      ['deleteLink', 204, undefined],
    ]);
  });

  it('a read FILE adds (getLink) names them too; without FILE fields no answer does', async () => {
    const app = await createNextContractApp('get-link-expires-at.yaml');
    const created = await app.request.post('/links').set('x-api-key', DEMO).send(NEW_LINK).expect(201);
    expect(created.headers['x-mock-generated']).toBe('Link.expiresAt');
    const read = await app.request.get(`/links/${created.body.id}`).set('x-api-key', DEMO).expect(200);
    expect([read.body.expiresAt, read.headers['x-mock-generated']]).toEqual(['2027-01-31T23:59:59.000Z', 'Link.expiresAt']);
    const another = await app.request.get(`/links/${created.body.id}`).set('x-api-key', 'other-key').expect(404);
    expect(another.headers['x-mock-generated']).toBeUndefined();
    const journal = await app.request.get('/__admin/requests').expect(200);
    expect((journal.body.entries as { generatedFields?: string[] }[]).slice(0, 3).map((entry) => entry.generatedFields)).toEqual([['Link.expiresAt'], ['Link.expiresAt'], undefined]);
    const shipped = await createTestApp();
    const plain = await shipped.request.post('/links').set('x-api-key', DEMO).send(NEW_LINK).expect(201);
    expect(plain.headers['x-mock-generated']).toBeUndefined();
    expect((await shipped.request.get('/__admin/requests').expect(200)).body.entries.at(-1)).not.toHaveProperty('generatedFields');
  });
});

describe('a stored value of a field FILE does not have (a FILE an edit swapped out, --watch)', () => {
  it('is kept in the record and not shown; FILE\'s own fields show their stored value, else one made from the schema', async () => {
    const app = await createNextContractApp('required-field.yaml');
    const [record] = await app.linksOf(DEMO);
    if (!record) throw new Error('the demo account has seeded links');
    const stored = { ...record, extra: { expiresAt: '2030-01-01T00:00:00.000Z', status: 'stored-status' } };
    const shown = (await app.service.view(stored)) as unknown as Record<string, unknown>;
    expect(shown).not.toHaveProperty('expiresAt');
    expect(shown['status']).toBe('stored-status');
    expect(shown['campaignCode']).toMatch(/^[A-Z]{3}-[0-9]{4}$/);
  });
});
