// "Arrays: the longest allowed". The only array in any answer is a link's tags, a stored fact: a
// longer list in an answer would say the link has tags it has not. So variety does not lengthen it
// (GET /__admin/variety/dimensions says so under notVaried), and a client gets the longest list
// for real by creating a link with maxItems tags, which round-trips under variety.
import { describe, expect, it } from 'vitest';
import { operationAnswers, STORED_FACTS } from '../../src/variety/contract-fields.js';
import { contract, createTestApp, DEMO } from '../helpers/test-app.js';

const TAGS_MAX = 50;

describe('the longest tag list', () => {
  it('is the only array of any answer, a stored fact with a maxItems', () => {
    const arrays = operationAnswers(contract.document).flatMap(({ operationId, statuses }) => statuses.flatMap(({ fields }) => fields.filter(({ schema }) => schema.type === 'array').map(({ field, schema }) => ({ operationId, field, maxItems: schema.maxItems }))));
    expect(arrays.length).toBeGreaterThan(0);
    for (const array of arrays) expect(STORED_FACTS.has(array.field), `${array.operationId}.${array.field}`).toBe(true);
    expect(new Set(arrays.map(({ maxItems }) => maxItems))).toEqual(new Set([TAGS_MAX]));
  });

  it('is not varied, and the dimensions listing says why and how to get it', async () => {
    const app = await createTestApp();
    const { body } = await app.request.get('/__admin/variety/dimensions').expect(200);
    expect(body.notVaried).toContainEqual({ what: 'createLink.tags:longest', why: expect.stringMatching(/stored fact.*50 tags/) });
    expect(body.dimensions.map(({ name }: { name: string }) => name)).not.toContain('createLink.tags:longest');
  });

  it(`a link created with ${TAGS_MAX} tags under variety round-trips: the same ${TAGS_MAX} tags on create and update`, async () => {
    const app = await createTestApp({ variety: { seed: 8, only: ['createLink.tags:permuted', 'updateLink.tags:permuted'] } });
    const tags = Array.from({ length: TAGS_MAX }, (_, i) => ({ name: `tag-${String(i).padStart(2, '0')}` }));
    const created = await app.request.post('/links').set('x-api-key', DEMO).send({ tags, destinationUrl: 'https://example.com/many', domain: 'short.test' }).expect(201);
    const names = (body: { tags: { name: string }[] }): string[] => body.tags.map(({ name }) => name).sort();
    expect(names(created.body)).toEqual(tags.map(({ name }) => name));
    const updated = await app.request.put(`/links/${created.body.id}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/many-2' }).expect(200);
    expect(names(updated.body)).toEqual(tags.map(({ name }) => name));
    expect(updated.body.tags.map(({ name }: { name: string }) => name)).not.toEqual(tags.map(({ name }) => name));
  });
});
