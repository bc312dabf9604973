// A batch of the links' members parsed as an array of keys and values (src/store/file/member-pairs.ts):
// the writer's layout gives every member, key then value, in order; anything else is left to the
// object's parse, with the bytes as they were.
import { describe, expect, it, vi } from 'vitest';
import { ColonSpots, memberPairs } from '../../src/store/file/member-pairs.js';

/** The batch as db-records.ts holds it: a free byte, the members, a free byte. */
const batchOf = (members: string): Buffer => Buffer.from(`,${members},`, 'utf8');
const parseIn = (bytes: Buffer) => (from: number, to: number): unknown => JSON.parse(bytes.toString('utf8', from, to));
const pairsOf = (members: string, spots = new ColonSpots()): { pairs: unknown[] | undefined; bytes: Buffer } => {
  const bytes = batchOf(members);
  return { pairs: memberPairs(bytes, 0, bytes.length - 1, spots, parseIn(bytes)), bytes };
};
/** What the object's parse gives, as pairs. */
const objectPairs = (members: string): unknown[] => Object.entries(JSON.parse(`{${members}}`) as object).flat();

describe('memberPairs', () => {
  it("gives the writer's members as keys and values in turn: escapes in keys, colons and lines in values, any width", () => {
    const members = [
      '\n    "lnk_a": {"id":"lnk_a","title":"a: b, c","tagIds":[]}',
      '\n    "lnk_\\"q\\\\": {"id":"lnk_\\"q\\\\","title":"\\n    \\"x\\": 1"}',
      '\n    "lnk_é€𝄞": {"id":"lnk_é€𝄞","n":{"k":"v"}}',
      '\n    "lnk_\\u0041": 7',
    ].join(',');
    const { pairs } = pairsOf(members);
    expect(pairs).toEqual(objectPairs(members));
    expect(pairs?.[2]).toBe('lnk_"q\\');
  });

  it('reads a pretty-printed member (its value over several lines)', () => {
    const members = `\n    "lnk_a": ${JSON.stringify({ id: 'lnk_a', tagIds: ['t1', 't2'], nested: { a: 1 } }, null, 2).replace(/\n/g, '\n    ')},\n    "lnk_b": {"id":"lnk_b"}`;
    expect(pairsOf(members).pairs).toEqual(objectPairs(members));
  });

  it('keeps a duplicate key as a member again, in its place', () => {
    expect(pairsOf('\n    "a": 1,\n    "b": 2,\n    "a": 3').pairs).toEqual(['a', 1, 'b', 2, 'a', 3]);
  });

  it.each([
    ['two members on a line', '\n    "a": 1, "b": 2'],
    ['a member at another indent', '\n    "a": 1,\n  "b": 2'],
    ['a space before a colon', '\n    "a" : 1'],
    ["a value's key at the members' indent", '\n    "a": {"x": 1,\n    "y": 2}'],
    ["a value's string at the members' indent", '\n    "a": [1,\n    "y"]'],
    ['a broken value', '\n    "a": {"x": }'],
    ['an unterminated key', '\n    "a'],
    ['blanks only', '\n   '],
  ])('leaves %s to the object parse, with the bytes as they were', (_what, members) => {
    const spots = new ColonSpots();
    const { pairs, bytes } = pairsOf(members, spots);
    expect(pairs).toBeUndefined();
    expect(bytes.toString('utf8', 1, bytes.length - 1)).toBe(members);
    expect(spots.count).toBe(0);
  });

  it('takes more members than its first room for colons (4,096), and reuses it for the next batch', () => {
    const spots = new ColonSpots();
    const many = Array.from({ length: 10_000 }, (_, i) => `\n    "lnk_${i}": {"id":"lnk_${i}"}`).join(',');
    const { pairs } = pairsOf(many, spots);
    expect(pairs?.length).toBe(20_000);
    expect(pairs?.[19_998]).toBe('lnk_9999');
    expect(pairsOf('\n    "x": 1', spots).pairs).toEqual(['x', 1]);
  });

  it("passes on an error of the parse that is not the text's", () => {
    const bytes = batchOf('\n    "a": 1');
    const failing = vi.fn(() => {
      throw new RangeError('out of memory');
    });
    expect(() => memberPairs(bytes, 0, bytes.length - 1, new ColonSpots(), failing)).toThrow(RangeError);
  });
});
