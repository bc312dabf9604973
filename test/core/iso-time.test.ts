// isoTime (src/core/iso-time.ts): the text of Date.prototype.toISOString, kept for the last
// millisecond; never another millisecond's text, and an invalid Date still throws.
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/core/iso-time.js';

describe('isoTime', () => {
  it("gives toISOString's text for every date, whether or not the millisecond is the last one's", () => {
    const times = [0, 1, 1, 1_764_000_000_000, 1_764_000_000_000, 1_764_000_000_001, -1, 8.64e15, -8.64e15, 1_764_000_000_000, 253_402_300_800_000];
    for (const ms of times) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it("gives toISOString's text for every millisecond across second, minute, day and year boundaries", () => {
    for (const edge of [Date.UTC(2026, 10, 29, 5, 0, 0), Date.UTC(2027, 0, 1), Date.UTC(2024, 1, 29, 23, 59, 59), 0, 253_402_300_799_999, 253_402_300_800_000, -1000]) {
      for (let ms = edge - 2_003; ms <= edge + 2_003; ms += 1) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
    }
  });

  it('follows a clock that goes back and forth', () => {
    for (let ms = 1_764_000_000_000, step = 0; step < 200; step += 1, ms += step % 3 === 0 ? -7 : 5) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('throws for an invalid Date as toISOString does, and then formats again', () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(isoTime(new Date(5))).toBe('1970-01-01T00:00:00.005Z');
  });
});
