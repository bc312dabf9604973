// LinkArena (src/core/packed/link-arena.ts): records as bytes in Buffer segments by a stable record
// number. Checked against a Map of copies through seeded adds, replaces, removes and compaction
// steps; its accounting of live and free bytes; its bounds (a record past a segment, past
// MAX_RECORD_BYTES, of 0 bytes; MAX_RECORDS live at once).
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { COMPACT_STEP_BYTES, MAX_RECORD_BYTES, MAX_RECORDS, SEGMENT_BYTES } from '../../../src/core/packed/bounds.js';
import { LinkArena, SLOT_HEADER_BYTES } from '../../../src/core/packed/link-arena.js';

let stamps = 0;
/** A record of `size` bytes told from the others by its fill and its leading stamp. */
function recordOf(size: number): Buffer {
  stamps += 1;
  const bytes = Buffer.alloc(size, 97 + (stamps % 26));
  bytes.write(String(stamps), 0, 'latin1');
  return bytes;
}

/** The arena holds the model's records, byte for byte, and counts exactly their bytes live. */
function expectHolds(arena: LinkArena, model: Map<number, Buffer>): void {
  expect(arena.size).toBe(model.size);
  let live = 0;
  const wrong: number[] = [];
  for (const [n, bytes] of model) {
    if (!arena.has(n) || !arena.bytes(n).equals(bytes)) wrong.push(n);
    live += SLOT_HEADER_BYTES + bytes.length;
  }
  expect(wrong).toEqual([]);
  const held = arena.held();
  expect(held.live).toBe(live);
  expect(held.free).toBe(held.used - live);
}

describe('LinkArena', () => {
  it('keeps each record under its number through adds, replaces, removes and compaction steps (seeded, 30,000 steps)', () => {
    faker.seed(4002);
    const arena = new LinkArena();
    const model = new Map<number, Buffer>();
    /** The model's record numbers, to draw from (a removed one swapped with the last). */
    const known: number[] = [];
    let steps = 0;
    for (let step = 0; step < 30_000; step += 1) {
      const action = faker.number.int({ min: 0, max: 9 });
      if (action < 4 || known.length === 0) {
        const bytes = recordOf(faker.number.int({ min: 0, max: 2000 }));
        const n = arena.add(bytes, step);
        expect(model.has(n)).toBe(false);
        model.set(n, bytes);
        known.push(n);
      } else if (action < 6) {
        const n = faker.helpers.arrayElement(known);
        const bytes = recordOf(faker.number.int({ min: 0, max: 3000 }));
        arena.replace(n, bytes);
        model.set(n, bytes);
        expect(arena.createdAt(n)).toBeGreaterThanOrEqual(0);
      } else if (action < 9) {
        const at = faker.number.int({ min: 0, max: known.length - 1 });
        const n = known[at] as number;
        known[at] = known[known.length - 1] as number;
        known.pop();
        arena.remove(n);
        model.delete(n);
        expect(arena.has(n)).toBe(false);
        expect(() => arena.bytes(n)).toThrow(/no record/);
      } else {
        const walked = arena.compactStep(faker.number.int({ min: 1, max: 64 * 1024 }));
        if (walked > 0) steps += 1;
      }
      if (step % 997 === 0) expectHolds(arena, model);
    }
    expectHolds(arena, model);
    expect(steps).toBeGreaterThan(0);
    for (const [n, bytes] of model) expect(arena.text(n)).toBe(bytes.toString('latin1'));
  });

  it('moves the records out of a segment under half live, a bounded slice a call, the numbers kept; the segment is dropped', () => {
    faker.seed(4003);
    const arena = new LinkArena();
    const model = new Map<number, Buffer>();
    // ~3.5 segments of 300-byte records.
    for (let at = 0; at < 50_000; at += 1) {
      const bytes = recordOf(300);
      model.set(arena.add(bytes), bytes);
    }
    const before = arena.held();
    expect(before.segments).toBe(4);
    // Three of four records of the first 30,000 (the first two segments) removed.
    for (let n = 0; n < 30_000; n += 1) {
      if (n % 4 !== 0) {
        arena.remove(n);
        model.delete(n);
      }
    }
    expect(arena.held().free).toBeGreaterThan(SEGMENT_BYTES);
    let calls = 0;
    for (let walked = arena.compactStep(); walked > 0; walked = arena.compactStep()) {
      expect(walked).toBeLessThanOrEqual(COMPACT_STEP_BYTES + SLOT_HEADER_BYTES + 300);
      calls += 1;
      if (calls > 1000) throw new Error('compaction did not end');
    }
    expect(calls).toBeGreaterThan(2 * (SEGMENT_BYTES / COMPACT_STEP_BYTES) - 1);
    const after = arena.held();
    expect(after.segments).toBe(3);
    expect(after.free).toBeLessThan(SEGMENT_BYTES / 2);
    expectHolds(arena, model);
  });

  it('starts a new walk when the segment it was moving out is emptied, dropped, and its number and Buffer made a new segment', () => {
    const arena = new LinkArena();
    const model = new Map<number, Buffer>();
    const add = (): void => {
      const bytes = recordOf(300);
      model.set(arena.add(bytes), bytes);
    };
    while (arena.held().segments < 3) add();
    // Segment 0 under half live; one step into its walk.
    const perSegment = Math.floor(SEGMENT_BYTES / (SLOT_HEADER_BYTES + 300));
    const first = [...model.keys()].filter((n) => n < perSegment);
    for (const n of first.filter((n) => n % 4 !== 0)) {
      arena.remove(n);
      model.delete(n);
    }
    expect(arena.compactStep(4096)).toBeGreaterThan(0);
    // The rest of it removed: dropped; new records fill the open segment and then one made anew.
    const before = arena.held().segments;
    for (const n of first.filter((n) => n % 4 === 0 && model.has(n))) {
      arena.remove(n);
      model.delete(n);
    }
    const segments = arena.held().segments;
    expect(segments).toBe(before - 1);
    while (arena.held().segments === segments) add();
    for (let n = 0; n < 20_000; n += 1) add();
    expectHolds(arena, model);
    let calls = 0;
    while (arena.compactStep() > 0 && calls < 1000) calls += 1;
    expectHolds(arena, model);
    expect(arena.held().free).toBeLessThan(SEGMENT_BYTES);
  });

  it('gives a record larger than a segment a segment of its own, dropped with it; refuses one past MAX_RECORD_BYTES; keeps one of 0 bytes', () => {
    const arena = new LinkArena();
    const small = arena.add(Buffer.from('{"a":1}'));
    const big = Buffer.alloc(SEGMENT_BYTES + 1, 7);
    const n = arena.add(big);
    expect(arena.held().segments).toBe(2);
    expect(arena.bytes(n).equals(big)).toBe(true);
    const empty = arena.add(new Uint8Array(0));
    expect(arena.bytes(empty).length).toBe(0);
    expect(arena.text(empty)).toBe('');
    arena.remove(n);
    expect(arena.held().segments).toBe(1);
    // A small record grown past a segment moves into a segment of its own; shrunk, it stays in it.
    arena.replace(small, big);
    expect(arena.bytes(small).equals(big)).toBe(true);
    arena.replace(small, Buffer.from('{}'));
    expect(arena.text(small)).toBe('{}');
    expect(() => arena.add(new Uint8Array(MAX_RECORD_BYTES + 1))).toThrow(/at most 67108864 \(MAX_RECORD_BYTES\)/);
    expect(() => arena.replace(small, new Uint8Array(MAX_RECORD_BYTES + 1))).toThrow(/MAX_RECORD_BYTES/);
    expect(arena.text(small)).toBe('{}');
  });

  it('keeps a head (the key a record starts with): compared as bytes, kept through a replace unless given, bounded by the record', () => {
    const arena = new LinkArena();
    const n = arena.add(Buffer.from('lnk_a{"x":1}'), 1.5, 5);
    expect(arena.head(n)).toBe(5);
    expect(arena.sameHead(n, Buffer.from('lnk_a'), 5)).toBe(true);
    expect(arena.sameHead(n, Buffer.from('lnk_ab'), 5)).toBe(true);
    expect(arena.sameHead(n, Buffer.from('lnk_b'), 5)).toBe(false);
    expect(arena.sameHead(n, Buffer.from('lnk_'), 4)).toBe(false);
    expect(arena.text(n, 0, 5)).toBe('lnk_a');
    expect(arena.text(n, 5)).toBe('{"x":1}');
    arena.replace(n, Buffer.from('lnk_a{"x":22}'));
    expect([arena.head(n), arena.createdAt(n), arena.text(n, 5)]).toEqual([5, 1.5, '{"x":22}']);
    expect(() => arena.add(Buffer.from('ab'), 0, 3)).toThrow(/a head of 3 bytes in a record of 2/);
    expect(() => arena.replace(n, Buffer.from('ab'))).toThrow(/a head of 5 bytes in a record of 2/);
    expect(() => arena.add(Buffer.from('ab'), 0, -1)).toThrow(/a head of -1/);
    expect(arena.text(n)).toBe('lnk_a{"x":22}');
  });

  it('holds MAX_RECORDS records live at once, refuses one more, and hands a removed number out again', () => {
    const arena = new LinkArena();
    const none = new Uint8Array(0);
    for (let n = 0; n < MAX_RECORDS; n += 1) arena.add(none);
    expect(arena.size).toBe(MAX_RECORDS);
    expect(() => arena.add(none)).toThrow(/MAX_RECORDS/);
    arena.remove(12345);
    expect(arena.add(Buffer.from('x'))).toBe(12345);
    expect(arena.text(12345)).toBe('x');
  }, 60_000);
});
