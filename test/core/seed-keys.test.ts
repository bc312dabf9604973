// keyLinksAsDrawn (fixtures/seed-keys.ts): the seed's links keyed in the order they were drawn, then
// listed in the data's order, give the table and the ids keyLinks gives keying them in that order;
// two links of one id are keyed as keyLinks keys them (the later one in the first one's place, no ids).
import { describe, expect, it } from 'vitest';
import { REPEATED_SLUGS_SPEC } from '../helpers/seed-spec.js';
import { buildSeedLinks } from '../../fixtures/seed.js';
import { keyLinks, keyLinksAsDrawn } from '../../fixtures/seed-keys.js';
import { SplitLinkTable } from '../../src/core/link-table.js';
import type { LinkRecord } from '../../src/core/model.js';

const spec = REPEATED_SLUGS_SPEC;

describe('keyLinksAsDrawn', () => {
  it('gives the table and the ids keyLinks gives, though the links were drawn in another order', () => {
    const { data, links, drawOrder } = buildSeedLinks(7, spec);
    expect(Array.from(drawOrder)).not.toEqual(Array.from(drawOrder.keys()));
    const ids = keyLinksAsDrawn(data, links, drawOrder);
    const expected = { ...data, links: new SplitLinkTable() };
    expect(ids).toEqual(keyLinks(expected, links));
    expect([...data.links]).toEqual([...expected.links]);
  });

  it('keys two links of one id as keyLinks does: the later one in the first one\'s place, and no ids', () => {
    const { data, links } = buildSeedLinks(7, spec);
    const [a, b, c] = links.slice(0, 3).map((link) => ({ ...link })) as [LinkRecord, LinkRecord, LinkRecord];
    c.id = a.id;
    // c drawn first, a last: keyed in the order drawn, a would be the one kept.
    expect(keyLinksAsDrawn(data, [a, b, c], Uint32Array.of(2, 1, 0))).toBeUndefined();
    expect([...data.links.keys()]).toEqual([a.id, b.id]);
    expect(data.links.get(a.id)).toBe(c);
  });
});
