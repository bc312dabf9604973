// A time as the API writes it (ISO 8601 UTC, `2026-11-29T05:00:00.000Z`), made without
// Date.prototype.toISOString when it can be. Why: V8 formats that text in C++ through a printf-like
// formatter, about 7,000 instructions a call (callgrind), and a create formatted "now" twice (the
// link's createdAt, the journal entry's time): bench/create-cost.md, "Which cut bought what".
// toISOString's text for the years 1970–9999 has one fixed form, so the text of a millisecond in
// the same second as the last one formatted is that second's first 20 characters and the
// millisecond's three digits; the last text is kept whole too. Any other time goes to toISOString.

/** 9999-12-31T23:59:59.999Z: after it, toISOString writes six-digit years (+010000-…). */
const LAST_FIXED_FORM_MS = 253_402_300_799_999;

let lastMs = Number.NaN;
let lastText = '';
/** The second (ms / 1000, floored) whose text starts with `secondPrefix` (`2026-11-29T05:00:00.`). */
let lastSecond = Number.NaN;
let secondPrefix = '';

/** `date.toISOString()`, the same text; an invalid Date throws as toISOString does. */
export function isoTime(date: Date): string {
  const ms = date.getTime();
  // NaN (an invalid Date) never equals itself: it goes on to toISOString, which throws.
  if (ms === lastMs) return lastText;
  const second = Math.floor(ms / 1000);
  if (second === lastSecond) {
    const milli = ms - second * 1000;
    lastText = `${secondPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  } else {
    lastText = date.toISOString();
    // Only times of the fixed form are cut into a second's prefix.
    const fixedForm = ms >= 0 && ms <= LAST_FIXED_FORM_MS;
    lastSecond = fixedForm ? second : Number.NaN;
    secondPrefix = fixedForm ? lastText.slice(0, 20) : '';
  }
  lastMs = ms;
  return lastText;
}
