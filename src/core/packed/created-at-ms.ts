// A createdAt as ms when it is the mock's own form (toISOString's text), else NaN: only then is the
// number the text, and an order by the number the order by the text. Read from the text's digits
// (a put of a million links pays it each: Date.parse and toISOString to check would be ~0.8 µs a
// link, this ~0.05): Date.parse alone accepts days no month has (2026-02-30 → 2 March).

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The decimal number of text[at, at + length), or -1 if a character is not a digit. */
function digits(text: string, at: number, length: number): number {
  let value = 0;
  for (let k = at; k < at + length; k += 1) {
    const digit = text.charCodeAt(k) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const hasSeparators = (text: string): boolean =>
  text[4] === '-' && text[7] === '-' && text[10] === 'T' && text[13] === ':' && text[16] === ':' && text[19] === '.' && text[23] === 'Z';

export function createdAtMs(createdAt: unknown): number {
  if (typeof createdAt !== 'string' || createdAt.length !== 24 || !hasSeparators(createdAt)) return Number.NaN;
  const [year, month, day] = [digits(createdAt, 0, 4), digits(createdAt, 5, 2), digits(createdAt, 8, 2)];
  const [hour, minute, second, milli] = [digits(createdAt, 11, 2), digits(createdAt, 14, 2), digits(createdAt, 17, 2), digits(createdAt, 20, 3)];
  // Date.UTC reads a year under 100 as 19xx: those few go the slow way.
  if (year < 100) return slowly(createdAt);
  if (month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || milli < 0) return Number.NaN;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number))) return Number.NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second, milli);
}

function slowly(createdAt: string): number {
  const ms = Date.parse(createdAt);
  return Number.isFinite(ms) && new Date(ms).toISOString() === createdAt ? ms : Number.NaN;
}
