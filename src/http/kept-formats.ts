// The string formats of the contracts (`uri`, `date-time`), for the validators' Ajv, with each
// verdict kept for the strings seen last. ajv-formats' full `uri` is one regular expression of
// some 2,000 characters, run on every destinationUrl and shortUrl of every request and answer: a
// page of 15 links in the admin API runs it 30 times, and `date-time` 15 times, on the same strings
// each time it is read. Both are pure functions of the string, so a kept verdict is the verdict.
// They reach the validator through its own `formats` option, which it adds after ajv-formats.
// The strings a create makes new (its shortUrl, its createdAt) are never kept ones: the mock's own
// forms of them are judged by a short expression (uriJudge) or once per second (dateTimeJudge).
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** Strings whose verdict is kept, per format; when full, the kept ones are dropped and keeping starts again. */
export const MAX_KEPT_FORMAT_VERDICTS = 2_000;
/** A longer string is judged each time: keeping it would let a client hold large strings in memory. */
export const MAX_KEPT_FORMAT_LENGTH = 256;

type Judge = (text: string) => boolean;

/** `judge`, with its verdicts on short strings kept (at most MAX_KEPT_FORMAT_VERDICTS of them). */
export function keptVerdicts(judge: Judge): Judge {
  const kept = new Map<string, boolean>();
  return (text) => {
    if (typeof text !== 'string' || text.length > MAX_KEPT_FORMAT_LENGTH) return judge(text);
    let verdict = kept.get(text);
    if (verdict === undefined) {
      verdict = judge(text);
      if (kept.size >= MAX_KEPT_FORMAT_VERDICTS) kept.clear();
      kept.set(text, verdict);
    }
    return verdict;
  };
}

const dateTime = fullFormats['date-time'] as { validate: Judge; compare: (a: string, b: string) => number | undefined };

/**
 * An http(s) URL of a host name, an optional port, a path and a query in plain characters: every
 * shortUrl the mock makes (new on every create, so never a kept verdict) and most destinations.
 * Every string it matches, ajv-formats' full `uri` matches too (the same scheme, authority, path
 * and query characters, fewer of them; no userinfo, IP literal or percent-encoding), so a match is
 * the verdict; anything else is judged by the full expression.
 */
const PLAIN_HTTP_URL = /^https?:\/\/[a-z0-9.-]+(?::\d+)?(?:\/[a-z0-9._~-]*)*(?:\?[a-z0-9._~!$&'()*+,;=:@/?-]*)?$/i;

/** `uri`: a plain http(s) URL at once; any other string by `judge`, with kept verdicts. */
export function uriJudge(judge: Judge): Judge {
  const kept = keptVerdicts(judge);
  return (text) => (typeof text === 'string' && PLAIN_HTTP_URL.test(text)) || kept(text);
}

/** The mock's own form of a time (toISOString's: milliseconds and Z), new every millisecond. */
const ISO_MILLISECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * `date-time`: a time of the mock's own form has the verdict of its whole second (`…:SSZ`), kept
 * once per second rather than judged every millisecond; ajv-formats compares the seconds with their
 * fraction as SS.fff < 60 (< 61 for a leap second), which a fraction below 1 never changes.
 */
export function dateTimeJudge(judge: Judge): Judge {
  const kept = keptVerdicts(judge);
  return (text) => (typeof text === 'string' && ISO_MILLISECONDS.test(text) ? kept(`${text.slice(0, 19)}Z`) : kept(text));
}

/**
 * The validator's `formats` option: ajv-formats' own full-mode judges of the formats the contracts
 * use, with kept verdicts. One set per process: the verdict of a string never depends on the contract.
 */
export const validatorFormats = {
  uri: uriJudge(fullFormats.uri as Judge),
  'date-time': { validate: dateTimeJudge(dateTime.validate), compare: dateTime.compare },
};
