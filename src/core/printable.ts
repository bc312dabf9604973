// Text from a client or an upstream (a field name, a path, a value) that goes into a log line or
// onto a terminal: its control characters written as escapes, so that a `\n` cannot forge a log
// line and an ESC or CSI sequence cannot drive the reader's terminal. Also secrets in a query
// string, masked by name where an exchange is kept as evidence (the drift report).

// C0 controls, DEL and C1 controls (U+009B is a one-character CSI), line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The text on one line, each control character as `\n`, `\r`, `\t` or `\uXXXX`. */
export function printable(text: string): string {
  return text.replace(CONTROL, (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Query parameters whose value is a credential, by name (any case, `_` or `-` ignored). */
const SECRET_NAME = /key|token|secret|password|passwd|auth|signature|session/i;

/** `/a?apiKey=abc&page=2` → `/a?apiKey=***&page=2`; the path and other parameters as they were. */
export function maskQuerySecrets(target: string): string {
  const at = target.indexOf('?');
  if (at < 0) return target;
  const masked = target
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && SECRET_NAME.test(safeDecode(name).replace(/[_-]/g, '')) ? `${name}=***` : pair;
    });
  return `${target.slice(0, at)}?${masked.join('&')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
