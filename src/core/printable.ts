// Text from a client or an upstream (a field name, a path, a value) that goes into a log line or
// onto a terminal: its control characters written as escapes, so that a `\n` cannot forge a log
// line and an ESC or CSI sequence cannot drive the reader's terminal. Also a query string's values,
// masked where a URL is kept as evidence (the drift report) or printed back (a refused --proxy URL).

// C0 controls, DEL and C1 controls (U+009B is a one-character CSI), line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The text on one line, each control character as `\n`, `\r`, `\t` or `\uXXXX`. */
export function printable(text: string): string {
  return text.replace(CONTROL, (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `/a?apiKey=abc&page=2` → `/a?apiKey=***&page=***`: every value masked, the names and the path as
 * they were. Every value, not those of names that look secret: a signed URL's `sig`, an OAuth
 * `code`, a `jwt` or a `sid` are credentials too, and no list of names is ever complete.
 */
export function maskQueryValues(target: string): string {
  const at = target.indexOf('?');
  if (at < 0) return target;
  const masked = target
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals < 0 || equals === pair.length - 1 ? pair : `${pair.slice(0, equals)}=***`;
    });
  return `${target.slice(0, at)}?${masked.join('&')}`;
}
