// Records keyed by ids (MockData.links and .tags): an id is any string the API or a provider state
// accepts, `__proto__` included, and every writer keeps it as an entry of its own (issue 23): a
// plain assignment of `__proto__` sets the object's prototype instead, and the link was gone from
// the data, from a snapshot, and after the log was replayed at a restart.
import { describe, expect, it } from 'vitest';
import { applyChange } from '../../src/core/changes.js';
import type { LinkRecord, MockData, TagRecord } from '../../src/core/model.js';
import { MockState } from '../../src/core/state.js';
import { snapshotData } from '../../src/store/redis/redis-data.js';
import { SplitLinkTable } from '../../src/core/link-table.js';

const IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
const link = (id: string): LinkRecord => ({ id, accountId: 'acc_1', domainId: 'dom_1', slug: `s${id}`, destinationUrl: 'https://example.com/', createdAt: '2026-11-24T00:00:00.000Z', clickCount: 0, tagIds: [id] });
const tag = (id: string): TagRecord => ({ id, accountId: 'acc_1', name: `n${id}` });
const empty = (): MockData => ({
  formatVersion: 1,
  seed: 1,
  defaultDomain: { id: 'dom_1', name: 'short.test' },
  accounts: [{ id: 'acc_1', apiKey: 'k', name: 'A', linkLimit: 10, domains: [] }] as unknown as MockData['accounts'],
  tags: {},
  links: new SplitLinkTable(),
});

/** The data as a file and a snapshot hold it: JSON text and back. */
const roundTrip = (data: MockData): MockData => {
  const read = JSON.parse(JSON.stringify(data)) as MockData;
  return { ...read, links: SplitLinkTable.of(read.links) };
};

describe('ids named as members of every JavaScript object', () => {
  it('applyChange (the log replayed at open) keeps them', () => {
    const data = empty();
    for (const id of IDS) {
      applyChange(data, { op: 'put-tag', tag: tag(id) });
      applyChange(data, { op: 'put-link', link: link(id) });
    }
    expect([...roundTrip(data).links.keys()]).toEqual(IDS);
    expect(Object.keys(roundTrip(data).tags)).toEqual(IDS);
    expect(Object.getPrototypeOf(data.links)).toBe(SplitLinkTable.prototype);
    applyChange(data, { op: 'delete-link', id: '__proto__' });
    expect([...data.links.keys()]).toEqual(IDS.slice(1));
  });

  it('MockState keeps them, finds them and shows their tags', () => {
    const state = new MockState(empty());
    for (const id of IDS) {
      state.addTag(tag(id));
      state.addLink(link(id));
    }
    for (const id of IDS) {
      expect(state.linkById(id)?.id).toBe(id);
      expect(state.tagById(id)?.id).toBe(id);
      expect(state.toLink(state.linkById(id) as LinkRecord).tags).toEqual([{ id, name: `n${id}` }]);
    }
    expect([...roundTrip(state.data).links.keys()]).toEqual(IDS);
    const reopened = new MockState(roundTrip(state.data));
    expect(reopened.linkById('__proto__')?.slug).toBe('s__proto__');
  });

  it("a Redis snapshot's data keeps them", () => {
    const hash = (entries: [string, string][]) => entries.flat();
    const data = snapshotData([
      hash([['formatVersion', '1'], ['seed', '1'], ['defaultDomain', JSON.stringify({ id: 'dom_1', name: 'short.test' })]]),
      [],
      [],
      hash(IDS.map((id) => [id, JSON.stringify(tag(id))])),
      hash(IDS.map((id) => [id, JSON.stringify(link(id))])),
      [],
    ]);
    expect([...data.links.keys()]).toEqual(IDS);
    expect(Object.keys(data.tags)).toEqual(IDS);
  });
});
