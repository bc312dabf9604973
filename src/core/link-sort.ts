// Sorting many links into page order at once (OrderedLinks.of: every account's links at start and
// at each replace). Links the API made are in time order already: one pass sees it. Seeded links
// are not (faker draws each createdAt): a sort with a comparator of 1,000,000 of them took 3 s and
// more (20 million calls back into JavaScript), so when every createdAt is as the mock writes them
// (Date#toISOString: fixed width, whose string order is time order), they are ordered by a radix
// sort of a number read from each, O(n), and only links of the same millisecond are compared by id.
import type { LinkRecord } from './model.js';

const DIGIT_BITS = 11;
const DIGIT_MASK = (1 << DIGIT_BITS) - 1;

type Compare = (a: LinkRecord, b: LinkRecord) => number;

/** Sorts `links` in place, oldest first: `olderFirst` (link-order.ts), by createdAt then id. */
export function sortLinks(links: LinkRecord[], olderFirst: Compare): void {
  const order = sortedOrder(links, olderFirst);
  if (!order) return;
  const sorted = Array.from(order, (i) => links[i] as LinkRecord);
  for (let i = 0; i < sorted.length; i += 1) links[i] = sorted[i] as LinkRecord;
}

/**
 * Where each link of sortLinks' order was in `links` (which stay as they are); undefined when they
 * are in that order already. For a seed that wrote each link's line as it drew it: the lines are
 * then written in this order (src/process/seed-base.ts).
 */
export function sortedOrder(links: readonly LinkRecord[], olderFirst: Compare): Uint32Array | undefined {
  if (isSorted(links, olderFirst)) return undefined;
  const times = canonicalTimes(links);
  const byLinks = (a: number, b: number): number => olderFirst(links[a] as LinkRecord, links[b] as LinkRecord);
  // The sort is stable: indexes compared by their links give the order the links' own sort gives.
  if (!times) return Uint32Array.from(Array.from(links.keys()).sort(byLinks));
  const order = radixOrder(times);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && times[order[end] as number] === times[order[start] as number]) end += 1;
    // One millisecond: ordered by id (the comparator, on only the links that share it).
    if (end - start > 1) order.set(Array.from(order.subarray(start, end)).sort(byLinks), start);
    start = end;
  }
  return order;
}

function isSorted(links: readonly LinkRecord[], olderFirst: Compare): boolean {
  for (let i = 1; i < links.length; i += 1) if (olderFirst(links[i - 1] as LinkRecord, links[i] as LinkRecord) > 0) return false;
  return true;
}

/**
 * A number per link whose order is its createdAt's string order, from the earliest: the fields of
 * YYYY-MM-DDTHH:mm:ss.sssZ (each in its calendar range, so that the mixed radix below keeps their
 * order), read by character code, not by Date.parse (2 s per 1,000,000 on a busy machine).
 * Undefined when one is not in that form, or the years span too much for 2^53.
 */
function canonicalTimes(links: readonly LinkRecord[]): Float64Array | undefined {
  const times = new Float64Array(links.length);
  let earliest = Infinity;
  let latest = -Infinity;
  for (let i = 0; i < links.length; i += 1) {
    const time = timeOf((links[i] as LinkRecord).createdAt);
    if (time === undefined) return undefined;
    times[i] = time;
    if (time < earliest) earliest = time;
    if (time > latest) latest = time;
  }
  if (latest - earliest >= Number.MAX_SAFE_INTEGER) return undefined;
  for (let i = 0; i < times.length; i += 1) times[i] = (times[i] as number) - earliest;
  return times;
}

/** The ranges of the fields after the year: month, day, hour, minute, second, millisecond (as numbers from 0). */
const RADIXES = [12, 31, 24, 60, 60, 1000];
/** Where each field starts in YYYY-MM-DDTHH:mm:ss.sssZ, its width, and the character before it. */
const FIELDS: ReadonlyArray<[start: number, width: number, before: number]> = [
  [5, 2, 0x2d],
  [8, 2, 0x2d],
  [11, 2, 0x54],
  [14, 2, 0x3a],
  [17, 2, 0x3a],
  [20, 3, 0x2e],
];

function timeOf(createdAt: unknown): number | undefined {
  if (typeof createdAt !== 'string' || createdAt.length !== 24 || createdAt.charCodeAt(23) !== 0x5a) return undefined;
  let time = digits(createdAt, 0, 4);
  if (Number.isNaN(time)) return undefined;
  for (let f = 0; f < FIELDS.length; f += 1) {
    const [start, width, before] = FIELDS[f] as [number, number, number];
    const radix = RADIXES[f] as number;
    // Month and day count from 1.
    const value = digits(createdAt, start, width) - (f < 2 ? 1 : 0);
    if (createdAt.charCodeAt(start - 1) !== before || !(value >= 0 && value < radix)) return undefined;
    time = time * radix + value;
  }
  return time;
}

/** The decimal number of `width` digits at `start`; NaN when one is not a digit. */
function digits(text: string, start: number, width: number): number {
  let value = 0;
  for (let i = start; i < start + width; i += 1) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The indexes of `times` (whole numbers from 0 below 2^53) in ascending order, stable: LSD radix of
 * 11 bits a pass (2,048 buckets stay in cache), over the low and the high 32 bits of each number,
 * as many passes as the largest has bits.
 */
function radixOrder(times: Float64Array): Uint32Array {
  const n = times.length;
  const low = new Uint32Array(n);
  const high = new Uint32Array(n);
  let lowBits = 0;
  let highBits = 0;
  for (let i = 0; i < n; i += 1) {
    const time = times[i] as number;
    const upper = Math.floor(time / 2 ** 32);
    high[i] = upper;
    low[i] = time - upper * 2 ** 32;
    highBits |= upper;
    lowBits |= low[i] as number;
  }
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  let spare = new Uint32Array(n);
  const counts = new Uint32Array(1 << DIGIT_BITS);
  const passes: Array<[Uint32Array, number]> = [];
  for (const [keys, bits] of [[low, highBits === 0 ? 32 - Math.clz32(lowBits) : 32], [high, 32 - Math.clz32(highBits)]] as const) {
    for (let shift = 0; shift < bits; shift += DIGIT_BITS) passes.push([keys, shift]);
  }
  for (const [keys, shift] of passes) {
    counts.fill(0);
    for (let j = 0; j < n; j += 1) {
      const digit = ((keys[order[j] as number] as number) >>> shift) & DIGIT_MASK;
      counts[digit] = (counts[digit] as number) + 1;
    }
    let sum = 0;
    for (let d = 0; d < counts.length; d += 1) {
      const count = counts[d] as number;
      counts[d] = sum;
      sum += count;
    }
    for (let j = 0; j < n; j += 1) {
      const i = order[j] as number;
      const digit = ((keys[i] as number) >>> shift) & DIGIT_MASK;
      spare[counts[digit] as number] = i;
      counts[digit] = (counts[digit] as number) + 1;
    }
    [order, spare] = [spare, order];
  }
  return order;
}
