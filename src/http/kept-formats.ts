// The string formats of the contracts (`uri`, `date-time`), for the validators' Ajv, with each
// verdict kept for the strings seen last. ajv-formats' full `uri` is one regular expression of
// some 2,000 characters, run on every destinationUrl and shortUrl of every request and answer: a
// page of 15 links in the admin API runs it 30 times, and `date-time` 15 times, on the same strings
// each time it is read. Both are pure functions of the string, so a kept verdict is the verdict.
// They reach the validator through its own `formats` option, which it adds after ajv-formats.
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
 * The validator's `formats` option: ajv-formats' own full-mode judges of the formats the contracts
 * use, with kept verdicts. One set per process: the verdict of a string never depends on the contract.
 */
export const validatorFormats = {
  uri: keptVerdicts(fullFormats.uri as Judge),
  'date-time': { validate: keptVerdicts(dateTime.validate), compare: dateTime.compare },
};
