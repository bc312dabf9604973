// A time as the API writes it (ISO 8601 UTC, `2026-11-29T05:00:00.000Z`), the last one kept.
// Why: V8's Date.prototype.toISOString is a call into C++ of about 1 µs, and a create formatted
// "now" twice (the link's createdAt, the journal entry's time); at thousands of requests a second
// most calls fall in a millisecond formatted already (bench/create-cost.md, "Which cut bought
// what"). Keyed by the exact millisecond, so the text is always the one toISOString gives.

let lastMs = Number.NaN;
let lastText = '';

/** `date.toISOString()`, the same text, formatted only when the millisecond differs from the last call's; an invalid Date throws as toISOString does. */
export function isoTime(date: Date): string {
  const ms = date.getTime();
  // NaN (an invalid Date) never equals itself: it goes on to toISOString, which throws.
  if (ms !== lastMs) {
    lastText = date.toISOString();
    lastMs = ms;
  }
  return lastText;
}
